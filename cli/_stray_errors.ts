// The stdio servers (mcp, acp) outlive any one request.

/** A failure outside a request must not end the server: log it to stderr and go on. */
export function keepServingOnStrayErrors(command: string): void {
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    console.error(`fello ${command}: unhandled error: ${String(event.reason)}`);
  });
}
