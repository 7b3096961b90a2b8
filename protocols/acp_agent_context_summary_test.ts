// createAcpAgent() showing a context summary in an editor: as a compaction to
// a client that advertised compactions, as a notice to one with notices, and
// not at all to others. The summarizer's requests carry a transcript ("## User").
import assert from "node:assert/strict";
import type * as acp from "@agentclientprotocol/sdk";
import { connectSession } from "../tests/support/acp_connect.ts";
import {
  contentText,
  type ScriptedServer,
  startScriptedServer,
} from "../tests/support/scripted_server.ts";
import { isSummarizer, userText } from "../tests/support/summary_script.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

const TURNS = 8;

/** Each answer is long (3,000 tokens): the model's own text fills the context. */
function server(): ScriptedServer {
  return startScriptedServer([
    {
      match: "## User",
      replies: Array.from({ length: 4 }, () => ({
        compute: (request) => ({
          text: `SUMMARY of ${
            [...userText(request.body).matchAll(/Turn \d+/g)].length
          } turns`,
        }),
      })),
    },
    {
      match: "",
      replies: Array.from({ length: 40 }, () => ({
        compute: (request) => ({
          text: `Answer to ${
            contentText(
              request.body.messages.findLast((m) => m.role === "user")
                ?.content,
            ).slice(-7)
          }. ${"words ".repeat(2_000)}`,
        }),
      })),
    },
  ]);
}

/** Runs TURNS prompts in one session of a client with `session` capabilities. */
async function converse(
  scripted: ScriptedServer,
  cwd: string,
  session?: acp.ClientSessionCapabilities,
): Promise<acp.SessionUpdate[]> {
  const { client, connection, ask } = await connectSession(scripted, cwd, {
    contextTokens: 20_000,
    session,
  });
  for (let turn = 1; turn <= TURNS; turn++) {
    await ask(`Go on, Turn ${turn}`);
  }
  await connection.close();
  return client.updates.map((n) => n.update);
}

Deno.test("createAcpAgent() shows a context summary as a compaction to a client that has them", async () => {
  await withWorkspace(async (dir) => {
    await using scripted = server();
    const updates = await converse(scripted, dir, { compaction: {} });
    const compactions = updates.filter((u) =>
      u.sessionUpdate === "compaction_update"
    );
    const summaries = scripted.requests.filter(isSummarizer);
    assert.ok(summaries.length >= 1, "the conversation was summarized");
    assert.equal(compactions.length, summaries.length);
    const [first] = compactions as (acp.CompactionUpdate & {
      sessionUpdate: "compaction_update";
    })[];
    assert.equal(first.status, "completed");
    assert.match(first.compactionId, /\S/);
    assert.deepEqual(first.summary?.map((b) => b.type), ["text"]);
    const text = (first.summary?.[0] as { text: string }).text;
    assert.match(text, /^SUMMARY of \d+ turns$/);
    // Shown before the answer of the turn whose request it shortened.
    const at = updates.indexOf(first);
    assert.ok(
      at > 0 && updates[at + 1]?.sessionUpdate === "agent_message_chunk",
    );
    assert.ok(!updates.some((u) => u.sessionUpdate === "notice"));
  });
});

Deno.test("createAcpAgent() tells a client with notices that it summarized, and others nothing", async () => {
  await withWorkspace(async (dir) => {
    await using scripted = server();
    const withNotices = await converse(scripted, dir, { notices: {} });
    const notices = withNotices.filter((u) => u.sessionUpdate === "notice");
    assert.ok(notices.length >= 1);
    const [notice] = notices as (acp.Notice & { sessionUpdate: "notice" })[];
    assert.equal(notice.severity, "info");
    assert.match(
      notice.title,
      /^Summarized the oldest \d+ messages to fit the context$/,
    );
    assert.match(notice.description ?? "", /^About \d+ → \d+ tokens\.$/);
    assert.ok(
      !withNotices.some((u) => u.sessionUpdate === "compaction_update"),
    );

    const plain = await converse(scripted, dir);
    const kinds = new Set(plain.map((u) => u.sessionUpdate));
    assert.deepEqual([...kinds], ["agent_message_chunk"]);
  });
});
