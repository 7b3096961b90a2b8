// session/load of the ACP agent, driven by the official ACP client app over
// the scripted server: a saved session replays what the editor saw live
// (steps of a cancelled prompt, <think> reasoning) and goes on.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { connect } from "../tests/support/acp_connect.ts";
import type { TestClient } from "../tests/support/acp_test_client.ts";
import { assertRoles } from "../tests/support/log_tool.ts";
import {
  type ChatMessage,
  contentText,
  startScriptedServer,
} from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

function text(message: ChatMessage | undefined): string {
  return contentText(message?.content) || String(message?.content ?? "");
}

/** The options the sessions here run with. */
const ALLOW = { model: "m", permissionMode: "allow" } as const;

Deno.test("acp session/load after a cancelled prompt replays its completed step, ids and outcomes as they were live, and goes on", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    const sessionsDir = join(dir, ".sessions");
    const secondStep = Promise.withResolvers<void>();
    await using server = startScriptedServer([{
      match: "Read the notes",
      replies: [
        {
          reasoning: "Both files.",
          text: "Reading.",
          toolCalls: [
            { name: "ReadFile", arguments: { path: "notes.txt" } },
            { name: "ReadFile", arguments: { path: "missing.txt" } },
          ],
        },
        {
          compute: (request) =>
            text(request.body.messages.at(-1)) === "And?"
              ? { text: "It said 42." }
              : (secondStep.resolve(), { hang: true }),
        },
      ],
    }]);
    const live = await connect(server, sessionsDir, ALLOW);
    const { sessionId } = await live.connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    const response = live.connection.agent.request(
      acp.methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text: "Read the notes" }] },
    );
    await secondStep.promise;
    await live.connection.agent.notify(acp.methods.agent.session.cancel, {
      sessionId,
    });
    assert.equal((await response).stopReason, "cancelled");
    const outcomes = (client: TestClient) =>
      client.updatesOf("tool_call_update")
        .filter((u) => u.status === "completed" || u.status === "failed")
        .map((u) => `${u.toolCallId} ${u.status}`).sort();
    const liveOutcomes = outcomes(live.client);
    assert.equal(liveOutcomes.length, 2);
    // Closed first, which frees its file for another agent.
    await live.connection.agent.request(acp.methods.agent.session.close, {
      sessionId,
    });
    live.connection.close();

    const reopened = await connect(server, sessionsDir, ALLOW);
    await reopened.connection.agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: dir,
      mcpServers: [],
    });
    const replay = reopened.client.updates.map((n) => n.update);
    assert.deepEqual(replay.map((u) => u.sessionUpdate), [
      "user_message_chunk",
      "agent_thought_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call",
      "tool_call_update",
      "tool_call_update",
    ]);
    assert.deepEqual(outcomes(reopened.client), liveOutcomes);
    assert.deepEqual(
      reopened.client.updatesOf("tool_call").map((u) => u.toolCallId),
      live.client.updatesOf("tool_call").map((u) => u.toolCallId),
    );
    assert.deepEqual(
      reopened.client.updatesOf("tool_call").map((u) => u.locations),
      [[{ path: join(dir, "notes.txt") }], [{
        path: join(dir, "missing.txt"),
      }]],
    );
    assert.match(
      JSON.stringify(reopened.client.updatesOf("tool_call_update")[0].content),
      /the answer is 42/,
    );

    await reopened.connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "And?" }],
    });
    assert.match(reopened.client.text, /It said 42\./);
    const request = server.requests.at(-1)!;
    assertRoles(request, "system user assistant tool tool user");
    reopened.connection.close();
  });
});

Deno.test("acp: a <think> answer is saved and session/load replays it as a thought and a message, then goes on", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "think first",
      replies: [{ text: "<think>plan it</think>The answer is 4." }, {
        text: "again 4",
      }],
    }]);
    const sessions = join(dir, ".sessions");
    const first = await connect(server, sessions);
    const { sessionId } = await first.connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    await first.connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "think first" }],
    });
    assert.equal(first.client.text, "The answer is 4.");
    await first.connection.agent.request(acp.methods.agent.session.close, {
      sessionId,
    });
    await first.connection.close();
    const second = await connect(server, sessions);
    await second.connection.agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: dir,
      mcpServers: [],
    });
    const replay = second.client.updates.map((n) => n.update);
    assert.deepEqual(
      replay.map((u) => {
        const content = "content" in u ? u.content : undefined;
        const text = content && !Array.isArray(content) && "text" in content
          ? content.text
          : "";
        return `${u.sessionUpdate}: ${text}`;
      }),
      [
        "user_message_chunk: think first",
        "agent_thought_chunk: plan it",
        "agent_message_chunk: The answer is 4.",
      ],
    );
    const next = await second.connection.agent.request(
      acp.methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text: "more" }] },
    );
    assert.equal(next.stopReason, "end_turn");
    const sent = server.requests.at(-1)!.body.messages;
    const assistant = sent.filter((m) => m.role === "assistant");
    assert.deepEqual(assistant.map((m) => contentText(m.content)), [
      "The answer is 4.",
    ]);
    await second.connection.close();
  });
});
