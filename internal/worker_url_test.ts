import assert from "node:assert/strict";
import { workerUrl } from "./worker_url.ts";

Deno.test("workerUrl() keeps a file: URL and wraps a remote one in a data: module", () => {
  const local = new URL("file:///pkg/outline/_worker.ts");
  assert.equal(workerUrl(local), local);
  const remote = workerUrl(
    new URL("https://jsr.io/@fello/agent/0.1.0/outline/_worker.ts"),
  );
  assert.equal(remote.protocol, "data:");
  assert.equal(
    decodeURIComponent(remote.href.slice("data:text/javascript,".length)),
    'import "https://jsr.io/@fello/agent/0.1.0/outline/_worker.ts";',
  );
});
