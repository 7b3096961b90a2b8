// Named pipes for tests of what refuses to read one (a read would block).
import assert from "node:assert/strict";

/** Makes a FIFO at `path` (mkfifo); fails the test if it cannot. */
export async function makeFifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(made.success, new TextDecoder().decode(made.stderr));
}
