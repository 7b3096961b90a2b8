// The "mcp" command: serves the Search MCP server over stdio. Stdout belongs
// to the protocol, so every message here goes to stderr.
import { parseArgs } from "node:util";
import { exitCleanlyOn } from "./_exit_on_signals.ts";
import { keepServingOnStrayErrors } from "./_stray_errors.ts";
import { workspaceFolder } from "./_workspace.ts";
import { runtime } from "../internal/runtime/runtime.ts";

const USAGE = `Usage: fello mcp [--cwd DIR] [--workspace-only]

Serves the Search MCP server (tools: file_outline, read_symbol, repo_map,
search, rg) over stdio: an MCP client (an editor, Claude Desktop, the MCP
inspector) starts it and talks to it on stdin/stdout. Run by hand, it waits
for that client.

Options:
  --cwd DIR          the workspace: relative paths resolve against it and search
                     looks there by default (default: the current folder)
  --workspace-only   refuse paths outside the workspace (by default the tools
                     read wherever deno's --allow-read lets them)
  -h, --help         show this help`;

/** Runs the "mcp" command and resolves to its exit code when the client disconnects. */
export async function main(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        cwd: { type: "string" },
        "workspace-only": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`fello mcp: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let cwd: string;
  try {
    cwd = await workspaceFolder(values.cwd);
  } catch (error) {
    console.error(`fello mcp: ${(error as Error).message}`);
    return 2;
  }
  keepServingOnStrayErrors("mcp");
  exitCleanlyOn(["SIGTERM", "SIGHUP", "SIGINT"]);
  // Run by hand, a silent server looks hung.
  if (runtime.stdin.isTerminal()) {
    console.error(
      "fello mcp: waiting for an MCP client on stdin (an editor or agent starts this command itself; Ctrl-C quits)",
    );
  }
  const { serveSearchMcp } = await import("../protocols/mcp_server.ts");
  await serveSearchMcp({
    cwd,
    permissionMode: values["workspace-only"] ? "readOnly" : "allow",
  });
  return 0;
}
