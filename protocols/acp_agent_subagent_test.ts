// A Subagent's children as the editor sees them over ACP: their tool calls,
// permission requests and live Shell updates, each on the child's own call.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withAcpSession } from "../tests/support/acp_connect.ts";
import type {
  ScriptedConversation,
  ScriptedToolCall,
} from "../tests/support/scripted_server.ts";

/**
 * A parent that delegates one task in the call `parentId`, and a child that
 * runs `childCalls`, one a turn.
 */
function delegating(
  childCalls: ScriptedToolCall[],
  parentId = "call_sub",
): ScriptedConversation[] {
  return [
    {
      match: "delegate",
      replies: [
        {
          toolCalls: [{
            id: parentId,
            name: "Subagent",
            arguments: {
              tasks: [{ description: "child", prompt: "child: work" }],
            },
          }],
        },
        { text: "Delegated." },
      ],
    },
    {
      match: "child: work",
      replies: [
        ...childCalls.map((call) => ({ toolCalls: [call] })),
        { text: "Done." },
      ],
    },
  ];
}

Deno.test("acp agent gives a Subagent child's tool call an id of its own in the session", async () => {
  // The child's call has the very id of the parent's.
  const script = delegating([{
    id: "call_0",
    name: "WriteFile",
    arguments: { path: "c.txt", content: "child\n" },
  }], "call_0");
  await withAcpSession(script, async ({ client, ask }, { dir }) => {
    const response = await ask("delegate");
    assert.equal(response.stopReason, "end_turn");
    assert.equal(await Deno.readTextFile(join(dir, "c.txt")), "child\n");
    const ids = client.updatesOf("tool_call").map((u) => u.toolCallId);
    assert.equal(ids.length, 2, JSON.stringify(ids));
    assert.equal(new Set(ids).size, ids.length, JSON.stringify(ids));
  }, { permissionMode: "acceptEdits" });
});

Deno.test("acp agent asks about a Subagent child's edit on the child's own call, with its diff", async () => {
  const script = delegating([{
    id: "c_write",
    name: "WriteFile",
    arguments: { path: "c.txt", content: "child\n" },
  }]);
  await withAcpSession(script, async ({ client, ask }, { dir }) => {
    await ask("delegate");
    assert.equal(await Deno.readTextFile(join(dir, "c.txt")), "child\n");
    const asked = client.permissionRequests.map((r) => r.toolCall);
    assert.equal(asked.length, 1, JSON.stringify(asked));
    // The id the child's WriteFile was announced under (the model's, or
    // one derived from the Subagent call's).
    const announced = client.updatesOf("tool_call").find((u) =>
      (u.rawInput as { path?: string } | undefined)?.path === "c.txt"
    )?.toolCallId;
    assert.ok(announced, "the child's WriteFile was not announced");
    assert.equal(asked[0].toolCallId, announced);
    assert.ok(
      asked[0].content?.some((c) =>
        c.type === "diff" && c.path === join(dir, "c.txt")
      ),
      JSON.stringify(asked[0]),
    );
  });
});

Deno.test("acp agent shows a Subagent child's long Shell in_progress on the child's call", async () => {
  const script = delegating([{
    id: "c_shell",
    name: "Shell",
    arguments: { command: "echo started; sleep 1.6; echo done" },
  }]);
  await withAcpSession(script, async ({ client, ask }) => {
    await ask("delegate");
    const calls = client.updatesOf("tool_call");
    const shell = calls.find((u) => u.kind === "execute")?.toolCallId;
    const subagent = calls.find((u) => u.kind !== "execute")?.toolCallId;
    assert.ok(shell, "the child's Shell was not announced");
    const updates = client.updatesOf("tool_call_update");
    const running = updates.filter((u) => u.status === "in_progress");
    assert.ok(
      running.some((u) => u.toolCallId === shell),
      JSON.stringify(running),
    );
    assert.ok(
      !updates.some((u) => u.toolCallId === subagent && u.kind === "execute"),
      "the Subagent call was re-kinded execute",
    );
  }, { permissionMode: "allow" });
});
