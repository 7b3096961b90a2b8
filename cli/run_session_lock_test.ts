// `fello run --session` and the session's lock file: a run that ends before
// any save leaves nothing behind.
import assert from "node:assert/strict";
import { fello } from "../tests/support/fello_cli.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("fello run --session leaves no lock file when the run ends before any save", async () => {
  await withWorkspace(async (dir) => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = listener.addr.port;
    listener.close();
    const run = await fello(
      [
        "--base-url",
        `http://127.0.0.1:${port}/v1`,
        "--session",
        "s.json",
        "hi",
      ],
      { cwd: dir },
    );
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /Cannot reach the model endpoint/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), []);
  });
});
