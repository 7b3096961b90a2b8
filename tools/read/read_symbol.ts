// read_symbol: ReadFile `symbol` as a tool of its own, for the Search MCP
// server (whose clients address code by name without ReadFile's options).
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define.ts";
import type { Tool } from "../types.ts";
import {
  createReadFile,
  type ReadFileResult,
  readFileText,
} from "./read_file.ts";
import DESCRIPTION from "./read_symbol.txt" with { type: "text" };

/**
 * Input of the `read_symbol` tool.
 *
 * Executing read_symbol requires `--allow-read` for the file.
 *
 * @example Read one function of a file by name
 * ```ts
 * import { ToolContext } from "../context.ts";
 * import { createLocalFiles } from "../local_files.ts";
 * import { createLocalProcesses } from "../shell/local_processes.ts";
 * import { createReadSymbol, type ReadSymbolInput } from "./read_symbol.ts";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.go`, "package a\n\n// Hello greets.\nfunc Hello() {}\n");
 * const context = new ToolContext({
 *   workspace: cwd,
 *   permissionMode: "allow",
 *   files: createLocalFiles(),
 *   processes: createLocalProcesses(),
 * });
 * const input: ReadSymbolInput = { path: "a.go", symbol: "Hello" };
 * const { content, startLine } = await createReadSymbol(context).execute(input);
 * assert.equal(content, "// Hello greets.\nfunc Hello() {}\n");
 * assert.equal(startLine, 3);
 * ```
 */
export interface ReadSymbolInput {
  /** The file: relative to the workspace, absolute, or a `file://` URI. */
  path: string;
  /** The symbol's name path (`Class.method`), a unique suffix, maybe with `@LINE`. */
  symbol: string;
}

const schema = z.object({
  path: z.string().min(1, "must not be empty").describe("The file to read"),
  symbol: z.string().min(1, "must not be empty").describe(
    "Name path of the symbol, e.g. Class.method, or parse@120",
  ),
});

/**
 * Creates the `read_symbol` tool for a context: exactly one symbol's lines,
 * doc comment included, numbered, as ReadFile with `symbol` reads them.
 *
 * Requires `--allow-read` for the file (and for this package's own modules,
 * which the parser workers load).
 *
 * @example Its result names the symbol read
 * ```ts
 * import { ToolContext } from "../context.ts";
 * import { createLocalFiles } from "../local_files.ts";
 * import { createLocalProcesses } from "../shell/local_processes.ts";
 * import { createReadSymbol } from "./read_symbol.ts";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.py`, "class A:\n    def f(self):\n        pass\n");
 * const context = new ToolContext({
 *   workspace: cwd,
 *   permissionMode: "allow",
 *   files: createLocalFiles(),
 *   processes: createLocalProcesses(),
 * });
 * const { symbol } = await createReadSymbol(context).execute({ path: "a.py", symbol: "f" });
 * assert.deepEqual(symbol, { name: "A.f", kind: "method", startLine: 2, endLine: 3 });
 * ```
 *
 * @param context The workspace, permission gate and backends.
 * @returns The tool.
 */
export function createReadSymbol(
  context: ToolContext,
): Tool<ReadSymbolInput, ReadFileResult> {
  const readFile = createReadFile(context);
  return defineTool({
    name: "read_symbol",
    kind: "read",
    description: DESCRIPTION,
    schema,
    run: (input, options) =>
      readFile.execute({ path: input.path, symbol: input.symbol }, options),
    toModelText: readFileText,
  });
}
