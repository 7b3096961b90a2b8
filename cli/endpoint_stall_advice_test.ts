// The advice fello prints when the endpoint stops answering mid-request:
// real agents against a stalling and a hanging server.
import assert from "node:assert/strict";
import { createAgent } from "../agent/agent.ts";
import { EndpointError } from "../agent/endpoint_error.ts";
import { describeEndpointFailure } from "./_endpoint.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { startStallingServer } from "../tests/support/stalling_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test({
  name:
    "describeEndpointFailure() for a stalled endpoint does not tell the user to start a server that is running",
  async fn() {
    await withWorkspace(async (dir) => {
      const stalling = startStallingServer();
      await using hanging = startScriptedServer([{
        match: "hang",
        replies: [{ hang: true }],
      }]);
      try {
        for (
          const [baseURL, prompt] of [
            [stalling.baseURL, "please stall"],
            [hanging.baseURL, "hang"],
          ]
        ) {
          const agent = createAgent({
            baseURL,
            model: "m",
            cwd: dir,
            maxRetries: 0,
            requestTimeoutMs: 300,
          });
          const error = await agent.run(prompt).then(
            () => assert.fail("the run should fail"),
            (error: unknown) => error,
          );
          assert.ok(error instanceof EndpointError, String(error));
          assert.doesNotMatch(
            describeEndpointFailure(error),
            /start the server/,
          );
        }
      } finally {
        await stalling.close();
      }
    });
  },
});
