/**
 * The one error every tool throws: its message is written for the model and
 * says what failed, where, and what to do next.
 *
 * Needs no permission.
 *
 * @example Catch a tool failure
 * ```ts
 * import { createTools, ToolError } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const tools = createTools({ cwd: await Deno.makeTempDir() });
 * await assert.rejects(
 *   tools.ReadFile.execute({ path: "missing.txt" }),
 *   (error) => error instanceof ToolError && /missing\.txt/.test(error.message),
 * );
 * ```
 */
export class ToolError extends Error {
  /** Creates a tool error with a message fit to show the model. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ToolError";
  }
}
