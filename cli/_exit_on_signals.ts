// Deno ends on SIGTERM or SIGHUP (and SIGINT, unless listened to) without an
// "unload" event, so the commands a Shell call started in their own process
// groups would outlive it. Exiting through Deno.exit runs the unload hooks
// that kill them.

import { runtime } from "../internal/runtime/runtime.ts";
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/** Exits with 128 + the signal's number when one of `signals` arrives. */
export function exitCleanlyOn(
  signals: readonly (keyof typeof SIGNAL_NUMBERS)[],
): void {
  for (const signal of signals) {
    // Windows delivers SIGINT (Ctrl-C) alone of these.
    if (runtime.build.os === "windows" && signal !== "SIGINT") continue;
    runtime.addSignalListener(
      signal,
      () => runtime.exit(128 + SIGNAL_NUMBERS[signal]),
    );
  }
}
