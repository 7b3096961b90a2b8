// session/list and session/delete: an editor shows the saved threads, names
// them by their first request, and deletes the ones it no longer wants. The
// official ACP client app in process, the scripted server over HTTP.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { saveSession } from "../agent/session_file.ts";
import { connect } from "./support/acp_connect.ts";
import { startScriptedServer } from "./support/scripted_server.ts";
import { withWorkspace } from "./support/workspace.ts";

Deno.test("acp agent lists saved sessions newest first, named by their first request, by folder", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    const [a, b] = [join(dir, "a"), join(dir, "b")];
    await Deno.mkdir(a);
    await Deno.mkdir(b);
    // A conversation is matched by its first request; each reply is a turn.
    await using server = startScriptedServer([
      {
        match: "Explain",
        replies: [{ text: "A parser." }, { text: "Done." }, { text: "Ok." }],
      },
      { match: "Rename", replies: [{ text: "Renamed." }] },
      { match: "main.ts", replies: [{ text: "Read." }] },
    ]);
    const { client, connection, init } = await connect(server, saved);
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities, {
      close: {},
      list: {},
      delete: {},
    });
    const start = async (cwd: string, text: string) => {
      const { sessionId } = await connection.agent.request(
        acp.methods.agent.session.new,
        { cwd, mcpServers: [] },
      );
      await connection.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text }],
      });
      return sessionId;
    };
    const first = await start(a, "\n  Explain   this project\nin detail");
    // Its title is announced with the first prompt, once.
    const infos = client.updatesOf("session_info_update")
      .filter((u) =>
        client.updates.find((n) => n.update === u)?.sessionId === first
      );
    assert.deepEqual(infos.map((u) => u.title), ["Explain this project"]);
    // A later prompt keeps the title.
    await connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId: first,
      prompt: [{ type: "text", text: "Then write tests" }],
    });
    const second = await start(b, "Rename the module");
    // A prompt of attached files alone is titled by their names.
    const { sessionId: files } = await connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: b, mcpServers: [] },
    );
    await connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId: files,
      prompt: [
        { type: "resource_link", name: "main.ts", uri: `file://${b}/main.ts` },
        {
          type: "resource",
          resource: { uri: `file://${b}/lib/util.ts`, text: "export {}" },
        },
      ],
    });
    assert.deepEqual(
      client.updatesOf("session_info_update").at(-1)?.title,
      "main.ts, util.ts",
    );
    await connection.agent.request(acp.methods.agent.session.delete, {
      sessionId: files,
    });
    assert.equal(client.updatesOf("session_info_update").length, 3);

    const all = await connection.agent.request(
      acp.methods.agent.session.list,
      {},
    );
    assert.deepEqual(
      all.sessions.map(({ sessionId, cwd, title }) => ({
        sessionId,
        cwd,
        title,
      })),
      [
        { sessionId: second, cwd: b, title: "Rename the module" },
        { sessionId: first, cwd: a, title: "Explain this project" },
      ],
    );
    assert.equal(all.nextCursor, undefined);
    for (const session of all.sessions) {
      assert.ok(!Number.isNaN(Date.parse(session.updatedAt ?? "")));
    }
    const inA = await connection.agent.request(
      acp.methods.agent.session.list,
      { cwd: a },
    );
    assert.deepEqual(inA.sessions.map((s) => s.sessionId), [first]);
    await assert.rejects(
      connection.agent.request(acp.methods.agent.session.list, {
        cwd: "relative/path",
      }),
      /cwd must be an absolute path, got "relative\/path"/,
    );
    await connection.close();

    // Loaded again, the session keeps its title through the next save.
    const again = await connect(server, saved);
    await again.connection.agent.request(acp.methods.agent.session.load, {
      sessionId: first,
      cwd: a,
      mcpServers: [],
    });
    await again.connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId: first,
      prompt: [{ type: "text", text: "Then rename it" }],
    });
    assert.deepEqual(again.client.updatesOf("session_info_update"), []);
    const listed = await again.connection.agent.request(
      acp.methods.agent.session.list,
      {},
    );
    assert.deepEqual(
      listed.sessions.map((s) => [s.sessionId, s.title]),
      [[first, "Explain this project"], [second, "Rename the module"]],
    );
    await again.connection.close();
  });
});

Deno.test("acp agent pages a long list of sessions and refuses a cursor it never gave", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    for (let i = 0; i < 60; i++) {
      await saveSession(join(saved, `s${String(i).padStart(2, "0")}.json`), {
        cwd: dir,
        model: "m",
        title: `task ${i}`,
        messages: [],
      });
    }
    // Not sessions of ours: a name no id can have, and another program's file.
    await Deno.writeTextFile(join(saved, "a b.json"), "{}");
    await Deno.writeTextFile(join(saved, "notes.json"), '{"kind":"other"}');
    await using server = startScriptedServer([]);
    const { connection } = await connect(server, saved);
    const page1 = await connection.agent.request(
      acp.methods.agent.session.list,
      {},
    );
    assert.equal(page1.sessions.length, 50);
    assert.ok(page1.nextCursor);
    const page2 = await connection.agent.request(
      acp.methods.agent.session.list,
      { cursor: page1.nextCursor },
    );
    assert.equal(page2.sessions.length, 10);
    assert.equal(page2.nextCursor, undefined);
    const ids = [...page1.sessions, ...page2.sessions].map((s) => s.sessionId);
    assert.equal(new Set(ids).size, 60);
    assert.ok(ids.every((id) => /^s\d\d$/.test(id)));
    await assert.rejects(
      connection.agent.request(acp.methods.agent.session.list, {
        cursor: "not-ours",
      }),
      /unknown cursor "not-ours"; list again without one/,
    );
    await connection.close();
  });
});

Deno.test("acp agent deletes a saved session, closing it when open, never one another agent holds", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    await using server = startScriptedServer([
      { match: "Hello", replies: [{ text: "Hi." }, { text: "Hi again." }] },
    ]);
    const one = await connect(server, saved);
    const { sessionId } = await one.connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    await one.connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Hello" }],
    });
    const file = join(saved, `${sessionId}.json`);
    assert.ok((await Deno.stat(file)).isFile);

    // Another agent (a second editor window) cannot delete it while it is open.
    const other = await connect(server, saved);
    await assert.rejects(
      other.connection.agent.request(acp.methods.agent.session.delete, {
        sessionId,
      }),
      /another fello agent is using it; close it there first/,
    );
    assert.ok((await Deno.stat(file)).isFile);

    // The agent that has it open closes it, then deletes it.
    await one.connection.agent.request(acp.methods.agent.session.delete, {
      sessionId,
    });
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(`${file}.lock`), Deno.errors.NotFound);
    await assert.rejects(
      one.connection.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Hello" }],
      }),
      /unknown session/,
    );
    const listed = await other.connection.agent.request(
      acp.methods.agent.session.list,
      {},
    );
    assert.deepEqual(listed.sessions, []);
    for (const id of [sessionId, "never-saved", "../../etc/passwd"]) {
      await assert.rejects(
        other.connection.agent.request(acp.methods.agent.session.delete, {
          sessionId: id,
        }),
        /cannot delete session .*: no such session was saved/,
      );
    }
    await one.connection.close();
    await other.connection.close();

    // Without a folder there is nothing to list or delete.
    const without = await connect(server);
    assert.deepEqual(
      without.init.agentCapabilities?.sessionCapabilities,
      { close: {} },
    );
    await assert.rejects(
      without.connection.agent.request(acp.methods.agent.session.delete, {
        sessionId: "x",
      }),
      /sessions are not saved/,
    );
    await without.connection.close();
  });
});
