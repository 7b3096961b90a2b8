// The ACP agent's permission questions, driven by the official ACP client app
// over the scripted server: one at a time in the model's order, mode switches,
// session/cancel, and two sessions writing one file.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { queuedFileCount } from "../tools/_file_lock.ts";
import { connect } from "../tests/support/acp_connect.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

function writeCall(path: string, content: string) {
  return { name: "WriteFile", arguments: { path, content } };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

Deno.test("acp: questions still waiting when the editor switches the session to allow mode are not asked", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "write three",
      replies: [{
        toolCalls: [
          writeCall("a.txt", "a"),
          writeCall("b.txt", "b"),
          writeCall("c.txt", "c"),
        ],
      }, { text: "done" }],
    }]);
    const { client, connection } = await connect(server, undefined, {
      permissionMode: "ask",
    });
    const { sessionId } = await connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    client.options.permission = async () => {
      await sleep(100); // the person looks, then picks "allow" mode
      await connection.agent.request(acp.methods.agent.session.setMode, {
        sessionId,
        modeId: "allow",
      });
      return "allow_once";
    };
    const response = await connection.agent.request(
      acp.methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text: "write three" }] },
    );
    assert.equal(response.stopReason, "end_turn");
    for (const name of ["a.txt", "b.txt", "c.txt"]) {
      assert.ok(await Deno.stat(join(dir, name)), name);
    }
    assert.deepEqual(
      client.permissionRequests.map((r) => r.toolCall.title),
      ['Write 1 bytes to "a.txt"'],
    );
  });
});

Deno.test("acp: parallel calls ask the editor one at a time, in the model's order, with the command escaped and non-ASCII paths plain", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "do four things",
      replies: [{
        toolCalls: [
          writeCall("a.txt", "1"),
          { name: "Shell", arguments: { command: "echo \x1b[2Khi" } },
          writeCall("a.txt", "2"),
          writeCall("ファイル 😀.txt", "3"),
        ],
      }, { text: "done" }],
    }]);
    const { client, connection } = await connect(server, undefined, {
      permissionMode: "ask",
    });
    let pending = 0;
    let most = 0;
    client.options.permission = async () => {
      most = Math.max(most, ++pending);
      await sleep(60); // a person takes a moment
      pending--;
      return "allow_once";
    };
    const { sessionId } = await connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    const response = await connection.agent.request(
      acp.methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text: "do four things" }] },
    );
    assert.equal(response.stopReason, "end_turn");
    assert.equal(most, 1, "two questions were open at once");
    assert.deepEqual(
      client.permissionRequests.map((r) => r.toolCall.title),
      [
        'Write 1 bytes to "a.txt"',
        'Run "echo \\x1b[2Khi"',
        'Write 1 bytes to "a.txt"',
        'Write 1 bytes to "ファイル 😀.txt"',
      ],
    );
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "2");
    assert.equal(await Deno.readTextFile(join(dir, "ファイル 😀.txt")), "3");
    assert.equal(queuedFileCount(), 0);
  });
});

Deno.test("acp: session/cancel while a permission request is pending frees the file queues and the question line", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      {
        match: "write twice",
        replies: [{
          toolCalls: [
            writeCall("a.txt", "1"),
            writeCall("a.txt", "2"),
            writeCall("b.txt", "3"),
            { name: "ReadFile", arguments: { path: "a.txt" } },
          ],
        }, { text: "done" }],
      },
      {
        match: "write again",
        replies: [{ toolCalls: [writeCall("a.txt", "4")] }, { text: "ok" }],
      },
    ]);
    const { client, connection } = await connect(server, undefined, {
      permissionMode: "ask",
    });
    let answer = false;
    client.options.permission = () =>
      answer ? "allow_once" : new Promise<string>(() => {}); // walked away
    const { sessionId } = await connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    const first = connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "write twice" }],
    });
    await client.waitFor(() => client.permissionRequests.length === 1);
    await sleep(150);
    assert.equal(client.permissionRequests.length, 1, "one question at once");
    await connection.agent.notify(acp.methods.agent.session.cancel, {
      sessionId,
    });
    assert.equal((await first).stopReason, "cancelled");
    assert.equal(queuedFileCount(), 0);
    await assert.rejects(Deno.stat(join(dir, "a.txt")), Deno.errors.NotFound);
    answer = true;
    const second = await connection.agent.request(
      acp.methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text: "write again" }] },
    );
    assert.equal(second.stopReason, "end_turn");
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "4");
    assert.equal(queuedFileCount(), 0);
  });
});

Deno.test("acp: two sessions on one folder: a write waits for the other session's pending question on the same file, and session/cancel frees it at once", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      {
        match: "session A",
        replies: [{ toolCalls: [writeCall("a.txt", "A")] }, { text: "A" }],
      },
      {
        match: "session B",
        replies: [{ toolCalls: [writeCall("a.txt", "B")] }, { text: "B" }],
      },
    ]);
    const { client, connection } = await connect(server, undefined, {
      permissionMode: "ask",
    });
    const newSession = async () =>
      (await connection.agent.request(acp.methods.agent.session.new, {
        cwd: dir,
        mcpServers: [],
      })).sessionId;
    const a = await newSession();
    const b = await newSession();
    const answerA = Promise.withResolvers<string>();
    client.options.permission = (request) =>
      request.sessionId === a ? answerA.promise : "allow_once";
    const prompt = (sessionId: string, text: string) =>
      connection.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text }],
      });
    const turnA = prompt(a, "session A");
    await client.waitFor(() => client.permissionRequests.length === 1);
    const turnB = prompt(b, "session B");
    await sleep(300);
    assert.equal(client.permissionRequests.length, 1, "B waits its turn");
    const cancelledAt = performance.now();
    await connection.agent.notify(acp.methods.agent.session.cancel, {
      sessionId: b,
    });
    assert.equal((await turnB).stopReason, "cancelled");
    assert.ok(performance.now() - cancelledAt < 5_000, "cancelled at once");
    answerA.resolve("allow_once");
    assert.equal((await turnA).stopReason, "end_turn");
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "A");
    assert.equal(queuedFileCount(), 0);
  });
});
