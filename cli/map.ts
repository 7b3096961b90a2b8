// The "map" command: the repository's most relevant definitions within a
// token budget (see tools/repo_map/repo_map.ts), for a person or a script.
import { resolve } from "node:path";
import { requireDenoPermission } from "../internal/deno_permission.ts";
import { ToolError } from "../internal/tool_error.ts";
import {
  DEFAULT_MAP_TOKENS,
  MIN_MAP_TOKENS,
  repoMap,
} from "../tools/repo_map/repo_map.ts";

const USAGE = `Usage: fello map [options] [PATH]

Prints a map of the repository at PATH (default: the current folder): its
most relevant definitions, file by file with line ranges, ranked by how much
the rest of the code uses them, within a token budget. Per-file results are
cached in the state folder ($FELLO_STATE_DIR, else $XDG_STATE_HOME/fello, else
~/.local/state/fello), so a second map reads only the files that changed.

Options:
  --tokens <n>     the budget in tokens, at least ${MIN_MAP_TOKENS} (default ${DEFAULT_MAP_TOKENS})
  --focus <x>      a file or a symbol name path (Outliner.run) the map is about; repeatable
  --json           print {"root", "tokens", "map"} as JSON
  -h, --help       show this help

Exit codes: 0 mapped; 1 the folder could not be mapped; 2 bad usage.`;

interface Options {
  help: boolean;
  json: boolean;
  tokens: number;
  focus: string[];
  path?: string;
}

/** Runs the "map" command and resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  const options = parse(args);
  if (typeof options === "string") {
    console.error(`fello map: ${options}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const root = resolve(options.path ?? ".");
  try {
    await requireDenoPermission({ name: "read", path: root });
    const map = await repoMap(root, {
      tokens: options.tokens,
      focus: options.focus,
    });
    console.log(
      options.json
        ? JSON.stringify({ root, tokens: options.tokens, map })
        : map,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    if (options.json) console.log(JSON.stringify({ error: error.message }));
    console.error(`fello map: ${error.message}`);
    return 1;
  }
}

function parse(args: string[]): Options | string {
  const options: Options = {
    help: false,
    json: false,
    tokens: DEFAULT_MAP_TOKENS,
    focus: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-h" || arg === "--help") options.help = true;
    else if (arg === "--json") options.json = true;
    else if (arg === "--tokens") {
      const value = args[++i];
      const n = Number(value);
      if (value === undefined || !Number.isInteger(n) || n < MIN_MAP_TOKENS) {
        return `--tokens needs a whole number of at least ${MIN_MAP_TOKENS}, ${
          value === undefined ? "got nothing" : `got "${value}"`
        }`;
      }
      options.tokens = n;
    } else if (arg === "--focus") {
      const value = args[++i];
      if (value === undefined || value === "") {
        return "--focus needs a file or a symbol name";
      }
      options.focus.push(value);
    } else if (arg.startsWith("-") && arg !== "-") {
      return `unknown option "${arg}"`;
    } else if (options.path === undefined) options.path = arg;
    else return `one PATH at most, got "${options.path}" and "${arg}"`;
  }
  return options;
}
