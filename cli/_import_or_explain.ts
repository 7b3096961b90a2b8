// A command's lazily imported module: a refused read grant (Deno's) becomes
// one line on stderr instead of an uncaught error.
import { importLazily } from "../internal/lazy_import.ts";
import { ToolError } from "../internal/tool_error.ts";

/**
 * {@linkcode importLazily} for `fello <command>`; undefined, after printing
 * why, when Deno refuses to read the module's folder (the command then exits
 * with code 2).
 */
export async function importOrExplain<T>(
  command: string,
  url: URL,
): Promise<T | undefined> {
  try {
    return await importLazily<T>(url);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    console.error(`fello ${command}: ${error.message}`);
    return undefined;
  }
}
