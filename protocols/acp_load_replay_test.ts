// What session/load replays of a saved conversation: a summary only as the
// client's capabilities allow, and the plan as the Plan tool set it.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { withSummary } from "../agent/context_summary.ts";
import { saveSession } from "../agent/session_file.ts";
import type { AgentMessage } from "../agent/types.ts";
import { createTools } from "../tools/create_tools.ts";
import type { PlanEntry } from "../tools/plan/plan.ts";
import { connect } from "../tests/support/acp_connect.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import { replayUpdates } from "./_acp_replay.ts";

/** A successful Plan call and its result, as a saved conversation has them. */
function planCall(input: unknown): AgentMessage[] {
  return [
    {
      role: "assistant",
      content: [{
        type: "tool-call",
        toolCallId: "p1",
        toolName: "Plan",
        input,
      }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "p1",
        toolName: "Plan",
        output: { type: "text", value: "Plan updated" },
      }],
    },
  ] as AgentMessage[];
}

Deno.test("session/load replays a summary only as the client's capabilities allow, and the plan to all", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    const entries = [
      { content: "Read it", priority: "high", status: "completed" },
      { content: "Fix it", priority: "low", status: "pending" },
    ];
    const messages = [
      ...withSummary("SUMMARY of 3 turns", [], {
        role: "user",
        content: "Go on",
      }),
      ...planCall({ entries }),
      { role: "assistant", content: "Done." },
    ] as AgentMessage[];
    await saveSession(join(saved, "s1.json"), {
      cwd: dir,
      model: "m",
      messages,
    });
    await using server = startScriptedServer([]);
    const load = async (session?: acp.ClientSessionCapabilities) => {
      const { client, connection } = await connect(server, saved, { session });
      await connection.agent.request(acp.methods.agent.session.load, {
        sessionId: "s1",
        cwd: dir,
        mcpServers: [],
      });
      await connection.close();
      return client.updates.map((n) => n.update);
    };
    for (const session of [undefined, { notices: {} }, { compaction: {} }]) {
      const updates = await load(session);
      const kinds = updates.map((u) => u.sessionUpdate);
      const label = JSON.stringify(session);
      assert.ok(!kinds.includes("notice"), label);
      assert.equal(
        kinds.includes("compaction_update"),
        session?.compaction !== undefined,
        label,
      );
      const plans = updates.filter((u) => u.sessionUpdate === "plan");
      assert.deepEqual(plans, [{ sessionUpdate: "plan", entries }], label);
      const texts = updates.flatMap((u) =>
        u.sessionUpdate === "compaction_update"
          ? u.summary?.map((b) => b.type === "text" ? b.text : "") ?? []
          : u.sessionUpdate === "agent_message_chunk" &&
              u.content.type === "text"
          ? [u.content.text]
          : []
      );
      // The summary comes first, then the answer; its text is clean for a
      // compaction.
      assert.equal(texts.at(-1), "Done.", label);
      assert.match(texts[0], /SUMMARY of 3 turns$/, label);
      if (session?.compaction) assert.equal(texts[0], "SUMMARY of 3 turns");
    }
  });
});

Deno.test("session/load replays the plan the Plan tool set, not the raw input", async () => {
  const input = {
    entries: [{ content: "  Fix it\n", priority: "low", status: "pending" }],
  };
  const live: PlanEntry[][] = [];
  const tools = createTools({ onPlan: (entries) => void live.push(entries) });
  await tools.Plan.execute(input as Parameters<typeof tools.Plan.execute>[0]);
  const replayed = replayUpdates(planCall(input), {
    cwd: "/w",
    kinds: new Map([["Plan", "think"]]),
  });
  const plan = replayed.find((u) => u.sessionUpdate === "plan");
  assert.deepEqual(live, [[{
    content: "Fix it",
    priority: "low",
    status: "pending",
  }]]);
  assert.deepEqual(plan, { sessionUpdate: "plan", entries: live[0] });
});
