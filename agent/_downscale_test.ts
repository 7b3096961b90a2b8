import assert from "node:assert/strict";
import { modulesOutside } from "../tests/support/worker_graph.ts";
import { DOWNSCALE_WORKER_FOLDERS } from "./_downscale.ts";

Deno.test("DOWNSCALE_WORKER_FOLDERS hold every local module the image worker loads", async () => {
  // The read check before the worker starts covers these folders: a module
  // elsewhere would fail the worker under a grant that passes the check.
  const worker = new URL("./_downscale_worker.ts", import.meta.url);
  assert.deepEqual(
    await modulesOutside(worker, DOWNSCALE_WORKER_FOLDERS),
    [],
  );
});
