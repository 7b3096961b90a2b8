// The CLI: declares the commands and lazy-loads each one, so `outline` never
// pays for loading the AI SDK and `--help` loads nothing. The imports are
// literal, so Deno loads these modules without read permission; the npm
// packages only some commands use are imported by computed specifiers
// (internal/lazy_import.ts), which keeps Deno from fetching them at start-up.
import denoJson from "../deno.json" with { type: "json" };
import { likelyCommandTypo } from "./_command_typo.ts";

const USAGE =
  `fello ${denoJson.version}: a coding agent for any OpenAI-compatible endpoint

Usage:
  fello [run] "prompt"       run the agent on a prompt (no prompt on a terminal: interactive)
  fello outline <path>...    print the symbols of files or folders
  fello map [path]           print the repository's most relevant symbols within a token budget
  fello mcp                  serve the Search MCP server over stdio
  fello acp                  run as an Agent Client Protocol agent over stdio
  fello config               show the settings in force and where each came from

Options:
  -h, --help                 show this help
  -V, --version              show the version
  Run "fello <command> --help" for a command's options.

A first word one edit away from a command name (a letter added, dropped or
changed, or two swapped: "outlin", "mpc") is refused as a likely typo; to send
such a word to the model, put run first: fello run mpc

"fello" stands for: deno run -A jsr:@fello/agent (from a checkout: deno run -A mod.ts)`;

/** A subcommand: takes its arguments, resolves to the exit code. */
type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import("./run.ts")).main,
  outline: async () => (await import("./outline.ts")).main,
  map: async () => (await import("./map.ts")).main,
  mcp: async () => (await import("./mcp.ts")).main,
  acp: async () => (await import("./acp.ts")).main,
  config: async () => (await import("./config.ts")).main,
};

/** Runs the CLI with `args` and resolves to the process exit code. */
export async function main(args: string[]): Promise<number> {
  const [first, ...rest] = args;
  if (first === "-h" || first === "--help" || first === "help") {
    console.log(USAGE);
    return 0;
  }
  if (first === "-V" || first === "--version") {
    console.log(denoJson.version);
    return 0;
  }
  const load = first !== undefined && Object.hasOwn(COMMANDS, first)
    ? COMMANDS[first]
    : undefined;
  if (load) return (await load())(rest);
  const meant = first === undefined
    ? undefined
    : likelyCommandTypo(first, [...Object.keys(COMMANDS), "help"]);
  if (meant) return refuseTypo(first!, meant, args);
  return (await COMMANDS.run())(args);
}

function refuseTypo(typo: string, meant: string, args: string[]): number {
  const quoted = args.map((a) =>
    /^[\w./:=@,+-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`
  );
  console.error(
    `fello: unknown command "${typo}"; did you mean "${meant}"? (to send it to the model as a prompt, put run first: fello run ${
      quoted.join(" ")
    })`,
  );
  return 2;
}
