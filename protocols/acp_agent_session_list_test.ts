// createAcpAgent()'s saved threads as an editor such as Zed lists them:
// session/list (titles, folders, pages, cursors, odd files) and session/delete
// (open sessions, other agents, requests at once), over real session files.
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadSession, saveSession } from "../agent/session_file.ts";
import { connect, withSavingAgent } from "../tests/support/acp_connect.ts";
import type { TestClient } from "../tests/support/acp_test_client.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

/** The session_info_update titles the client was sent for `sessionId`. */
function titles(
  client: TestClient,
  sessionId: string,
): (string | null | undefined)[] {
  return client.updatesOf("session_info_update", sessionId).map((u) => u.title);
}

/** Saves an empty session `<id>.json` of `cwd` in `saved`. */
function saveEmpty(saved: string, id: string, cwd: string): Promise<void> {
  return saveSession(join(saved, `${id}.json`), {
    cwd,
    model: "m",
    messages: [],
  });
}

/** The names in `folder`. */
function names(folder: string): string[] {
  return [...Deno.readDirSync(folder)].map((e) => e.name);
}

/** Whether a string has no lone surrogate (serde_json, Zed's parser, refuses one). */
function wellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
    .test(text);
}

Deno.test("session/list lists saved sessions newest first, named by their first request, by folder", async () => {
  await withSavingAgent([
    // A conversation is matched by its first request; each reply is a turn.
    {
      match: "Explain",
      replies: [{ text: "A parser." }, { text: "Done." }, { text: "Ok." }],
    },
    { match: "Rename", replies: [{ text: "Renamed." }] },
    { match: "main.ts", replies: [{ text: "Read." }] },
  ], async (agent, { dir, saved, server }) => {
    const { client, init } = agent;
    const [a, b] = [join(dir, "a"), join(dir, "b")];
    await Deno.mkdir(a);
    await Deno.mkdir(b);
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities, {
      close: {},
      list: {},
      delete: {},
    });
    const start = async (cwd: string, text: string) => {
      const sessionId = await agent.newSession(cwd);
      await agent.prompt(sessionId, text);
      return sessionId;
    };
    const first = await start(a, "\n  Explain   this project\nin detail");
    // Its title is announced with the first prompt, once.
    assert.deepEqual(titles(client, first), ["Explain this project"]);
    // A later prompt keeps the title.
    await agent.prompt(first, "Then write tests");
    const second = await start(b, "Rename the module");
    // A prompt of attached files alone is titled by their names.
    const files = await agent.newSession(b);
    await agent.prompt(files, [
      { type: "resource_link", name: "main.ts", uri: `file://${b}/main.ts` },
      {
        type: "resource",
        resource: { uri: `file://${b}/lib/util.ts`, text: "export {}" },
      },
    ]);
    assert.deepEqual(
      client.updatesOf("session_info_update").at(-1)?.title,
      "main.ts, util.ts",
    );
    await agent.remove(files);
    assert.equal(client.updatesOf("session_info_update").length, 3);

    const all = await agent.list();
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
    const inA = await agent.list({ cwd: a });
    assert.deepEqual(inA.sessions.map((s) => s.sessionId), [first]);
    await assert.rejects(
      agent.list({ cwd: "relative/path" }),
      /cwd must be an absolute path, got "relative\/path"/,
    );
    await agent.connection.close();

    // Loaded again, the session keeps its title through the next save.
    const again = await connect(server, saved);
    await again.load(first, a);
    await again.prompt(first, "Then rename it");
    assert.deepEqual(again.client.updatesOf("session_info_update"), []);
    const listed = await again.list();
    assert.deepEqual(
      listed.sessions.map((s) => [s.sessionId, s.title]),
      [[first, "Explain this project"], [second, "Rename the module"]],
    );
    await again.connection.close();
  });
});

Deno.test("session/list titles a session by its first prompt that is not blank, before the reply, and keeps it after a cancel", async () => {
  await withSavingAgent([
    { match: "Fix the parser", replies: [{ text: "Sure." }] },
    { match: "Wait for me", replies: [{ hang: true }] },
  ], async (agent, { dir, server }) => {
    const blank = await agent.newSession(dir);
    await assert.rejects(
      agent.prompt(blank, " \n\t \n   "),
      /the prompt is empty/,
    );
    assert.deepEqual(titles(agent.client, blank), []);
    await agent.prompt(blank, "Fix the parser\nplease");
    assert.deepEqual(titles(agent.client, blank), ["Fix the parser"]);
    // The title comes before the prompt's reply.
    const kinds = agent.client.updates.filter((n) => n.sessionId === blank)
      .map((n) => n.update.sessionUpdate);
    assert.equal(kinds[0], "session_info_update");
    assert.ok(kinds.length > 1);
    assert.ok(kinds.slice(1).every((kind) => kind === "agent_message_chunk"));

    // A first prompt cancelled before any answer still names the session.
    const cancelled = await agent.newSession(dir);
    const running = agent.prompt(cancelled, "Wait for me");
    await agent.client.waitFor(() => server.requests.length >= 2);
    await agent.cancel(cancelled);
    assert.equal((await running).stopReason, "cancelled");
    const listed = await agent.list();
    assert.deepEqual(
      listed.sessions.map((s) => [s.sessionId, s.title]),
      [[cancelled, "Wait for me"], [blank, "Fix the parser"]],
    );
  });
});

Deno.test("session/list keeps an emoji at the title's 80-character cut whole", async () => {
  const text = `${"a".repeat(78)}😀${"b".repeat(20)}`;
  await withSavingAgent(
    [{ match: "aaaa", replies: [{ text: "Ok." }] }],
    async (agent, { dir }) => {
      const id = await agent.newSession(dir);
      await agent.prompt(id, text);
      const [announced] = titles(agent.client, id);
      const [listed] = (await agent.list()).sessions;
      for (const title of [announced, listed.title]) {
        assert.ok(typeof title === "string" && title.length <= 80);
        assert.ok(
          wellFormed(title),
          `lone surrogate in ${JSON.stringify(title)}`,
        );
      }
    },
  );
});

Deno.test("session/list titles a prompt that starts with an embedded file by what the user asked", async () => {
  await withSavingAgent(
    [{ match: "Explain", replies: [{ text: "Ok." }] }],
    async (agent, { dir }) => {
      const id = await agent.newSession(dir);
      // As Zed sends an @-mentioned file: the resource block first.
      await agent.prompt(id, [
        {
          type: "resource",
          resource: {
            uri: `file://${dir}/main.ts`,
            mimeType: "text/x-typescript",
            text: "export const x = 1;\n",
          },
        },
        { type: "text", text: "Explain this file" },
      ]);
      const [listed] = (await agent.list()).sessions;
      assert.match(listed.title ?? "", /Explain this file/);
      assert.doesNotMatch(listed.title ?? "", /<context/);
    },
  );
});

Deno.test("session/list pages a long list of sessions and refuses a cursor it never gave", async () => {
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
    const agent = await connect(server, saved);
    const page1 = await agent.list();
    assert.equal(page1.sessions.length, 50);
    assert.ok(page1.nextCursor);
    const page2 = await agent.list({ cursor: page1.nextCursor });
    assert.equal(page2.sessions.length, 10);
    assert.equal(page2.nextCursor, undefined);
    const ids = [...page1.sessions, ...page2.sessions].map((s) => s.sessionId);
    assert.equal(new Set(ids).size, 60);
    assert.ok(ids.every((id) => /^s\d\d$/.test(id)));
    await assert.rejects(
      agent.list({ cursor: "not-ours" }),
      /unknown cursor "not-ours"; list again without one/,
    );
    await agent.connection.close();
  });
});

Deno.test("session/list refuses offsets and numeric-looking cursors it never gave", async () => {
  await withSavingAgent([], async (agent, { dir, saved }) => {
    // Numbers in any spelling, with no sessions and then with three.
    for (const cursor of ["1e3", "0x32", " 50 ", "50.0"]) {
      await assert.rejects(
        agent.list({ cursor }),
        /unknown cursor/,
        `cursor ${JSON.stringify(cursor)}`,
      );
    }
    for (let i = 0; i < 3; i++) await saveEmpty(saved, `s${i}`, dir);
    for (const cursor of ["3", "-1", "1.5", "abc", "NaN", "Infinity"]) {
      await assert.rejects(agent.list({ cursor }), /unknown cursor/);
    }
  });
});

Deno.test("session/list agrees with loadSession() for odd headers, a 20 KB cwd and files that are not sessions", async () => {
  await withSavingAgent([], async (agent, { dir, saved }) => {
    const odd = [
      { cwd: `${dir}/q",\"messages\":[1]`, title: 'say ,"messages": \\' },
      { cwd: `${dir}/back\\slash\\`, title: "\\u0022 ünï 😀 \u2028 end" },
      { cwd: `/${"d".repeat(20_000)}`, title: "long folder" },
      { cwd: dir, title: undefined },
    ];
    for (const [i, header] of odd.entries()) {
      await saveSession(join(saved, `odd-${i}.json`), {
        ...header,
        model: `m","messages":["x`,
        messages: [{ role: "user", content: ',"messages":[] "}' }],
      });
    }
    // Not ours: junk, non-UTF-8, a temporary file being written, a folder.
    await Deno.writeTextFile(join(saved, "junk.json"), ',"messages":{');
    await Deno.writeFile(join(saved, "bytes.json"), new Uint8Array([0xff, 0]));
    await Deno.writeTextFile(join(saved, "null.json"), "null");
    await Deno.writeTextFile(
      join(saved, "odd-9.json.1234abcd.tmp"),
      '{"kind":"fello session","version":1,"cwd":"/x","messages":[',
    );
    await Deno.mkdir(join(saved, "dir.json"));

    const listed = await agent.list();
    const byId = new Map(listed.sessions.map((s) => [s.sessionId, s]));
    assert.deepEqual([...byId.keys()].sort(), odd.map((_, i) => `odd-${i}`));
    for (const [i, header] of odd.entries()) {
      const loaded = await loadSession(join(saved, `odd-${i}.json`));
      const info = byId.get(`odd-${i}`)!;
      assert.equal(info.cwd, header.cwd);
      assert.equal(info.cwd, loaded?.cwd);
      assert.equal(info.title, header.title);
      assert.equal(info.title, loaded?.title);
    }
    const inFolder = await agent.list({ cwd: odd[0].cwd });
    assert.deepEqual(inFolder.sessions.map((s) => s.sessionId), ["odd-0"]);
  });
});

Deno.test("session/list finds a folder's sessions when the folder ends in a slash", async () => {
  await withSavingAgent([], async (agent, { dir, saved }) => {
    await saveEmpty(saved, "s", dir);
    const listed = await agent.list({ cwd: `${dir}/` });
    assert.deepEqual(listed.sessions.map((s) => s.sessionId), ["s"]);
  });
});

Deno.test("session/delete removes a saved session, closing it when open, never one another agent holds", async () => {
  await withSavingAgent([
    { match: "Hello", replies: [{ text: "Hi." }, { text: "Hi again." }] },
  ], async (one, { dir, saved, server }) => {
    const sessionId = await one.newSession(dir);
    await one.prompt(sessionId, "Hello");
    const file = join(saved, `${sessionId}.json`);
    assert.ok((await Deno.stat(file)).isFile);

    // Another agent (a second editor window) cannot delete it while it is open.
    const other = await connect(server, saved);
    await assert.rejects(
      other.remove(sessionId),
      /another fello agent is using it; close it there first/,
    );
    assert.ok((await Deno.stat(file)).isFile);

    // The agent that has it open closes it, then deletes it.
    await one.remove(sessionId);
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(`${file}.lock`), Deno.errors.NotFound);
    await assert.rejects(one.prompt(sessionId, "Hello"), /unknown session/);
    assert.deepEqual((await other.list()).sessions, []);
    for (const id of [sessionId, "never-saved", "../../etc/passwd"]) {
      await assert.rejects(
        other.remove(id),
        /cannot delete session .*: no such session was saved/,
      );
    }
    await other.connection.close();

    // Without a folder there is nothing to list or delete.
    const without = await connect(server);
    assert.deepEqual(
      without.init.agentCapabilities?.sessionCapabilities,
      { close: {} },
    );
    await assert.rejects(without.remove("x"), /sessions are not saved/);
    await without.connection.close();
  });
});

Deno.test("session/delete during a running prompt cancels it, and the session stays deleted", async () => {
  await withSavingAgent([
    { match: "Work", replies: [{ hang: true }] },
  ], async (agent, { dir, saved, server }) => {
    const id = await agent.newSession(dir);
    await saveEmpty(saved, id, dir);
    const running = agent.prompt(id, "Work");
    await agent.client.waitFor(() => server.requests.length >= 1);
    await agent.remove(id);
    assert.equal((await running).stopReason, "cancelled");
    assert.deepEqual((await agent.list()).sessions, []);
    await assert.rejects(agent.load(id, dir), /no such session was saved/);
    assert.deepEqual(names(saved), []);
  });
});

Deno.test("session/delete of an open session that never saved leaves no lock file", async () => {
  await withSavingAgent([], async (agent, { dir, saved }) => {
    const id = await agent.newSession(dir);
    await agent.remove(id);
    assert.deepEqual(names(saved), []);
  });
});

// Both requests may pass the first check before either removes the file; the
// second must not leave `<id>.json.lock` behind. Timing-dependent: six trials
// met the race nearly always.
Deno.test("session/delete twice at once removes the session once and leaves nothing", async () => {
  await withSavingAgent([], async (agent, { dir, saved, server }) => {
    const other = await connect(server, saved);
    try {
      for (let trial = 0; trial < 6; trial++) {
        const id = `twice-${trial}`;
        await saveEmpty(saved, id, dir);
        const outcomes = await Promise.allSettled([
          agent.remove(id),
          trial % 2 ? other.remove(id) : agent.remove(id),
        ]);
        assert.deepEqual(
          outcomes.map((o) => o.status).sort(),
          ["fulfilled", "rejected"],
          `trial ${trial}`,
        );
        const [failed] = outcomes.flatMap((o) =>
          o.status === "rejected" ? [o.reason] : []
        );
        assert.match(String(failed), /no such session was saved/);
        assert.deepEqual(names(saved), []);
      }
    } finally {
      await other.connection.close();
    }
  });
});

// The first request closes the open session (releasing its lock); the second
// must not re-create the lock file after the first removed it.
Deno.test("session/delete twice at once of a session open here closes and removes it once", async () => {
  await withSavingAgent([], async (agent, { dir, saved }) => {
    for (let trial = 0; trial < 5; trial++) {
      const id = await agent.newSession(dir);
      await saveEmpty(saved, id, dir);
      const outcomes = await Promise.allSettled([
        agent.remove(id),
        agent.remove(id),
      ]);
      const failures = outcomes.flatMap((o) =>
        o.status === "rejected" ? [String(o.reason)] : []
      );
      // The second may be told there is nothing left, never that another
      // process holds it.
      for (const failure of failures) {
        assert.match(failure, /no such session was saved/, `trial ${trial}`);
      }
      assert.ok(failures.length < 2, `trial ${trial}`);
      assert.deepEqual(names(saved), []);
    }
  });
});
