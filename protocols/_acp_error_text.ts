// What the editor is told of a failed session/new or prompt turn: the
// embedder's wording when it gives one (fello acp adds how to configure an
// unreachable endpoint), else the error's own message.
import type { AcpAgentOptions } from "./acp_options.ts";

/** The text of `error` for an ACP error answer. */
export function describeError(
  error: unknown,
  options: Pick<AcpAgentOptions, "describeError">,
): string {
  if (!(error instanceof Error)) return String(error);
  if (!options.describeError) return error.message;
  try {
    return options.describeError(error);
  } catch {
    // A faulty wording must not hide the failure itself.
    return error.message;
  }
}
