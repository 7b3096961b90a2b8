// createAcpAgent() driven in process by the official ACP client side against
// the scripted model: the editor's buffers and diffs, permissions and modes,
// cancelling, terminals, errors, MCP over HTTP, subagents and live Shell output.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { z } from "zod";
import { createSearchMcpServer } from "./mcp_server.ts";
import {
  connect,
  connectSession,
  withAcpSession,
} from "../tests/support/acp_connect.ts";
import { isAlive, waitUntilGone } from "../tests/support/processes.ts";
import {
  callThen,
  startScriptedServer,
  toolResultText,
} from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("createAcpAgent() reads through the client's buffers and reports an approved edit as a diff", async () => {
  await withAcpSession([{
    match: "read then edit",
    replies: [
      {
        toolCalls: [{
          id: "call_read",
          name: "ReadFile",
          arguments: { path: "a.ts" },
        }],
      },
      {
        toolCalls: [{
          id: "call_edit",
          name: "EditFile",
          arguments: {
            path: "a.ts",
            oldText: "'buffer'",
            newText: "'edited'",
          },
        }],
      },
      {
        toolCalls: [{
          id: "call_edit_again",
          name: "EditFile",
          arguments: { path: "a.ts", oldText: "const", newText: "let" },
        }],
      },
      { text: "Edited." },
    ],
  }], async ({ client, init, ask }, { dir, server }) => {
    const file = join(dir, "a.ts");
    await Deno.writeTextFile(file, "const x = 'disk';\n");
    assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
    assert.equal(
      init.agentCapabilities?.promptCapabilities?.embeddedContext,
      true,
    );
    const response = await ask("read then edit a.ts");
    assert.equal(response.stopReason, "end_turn");

    // The model saw the unsaved buffer, not the disk.
    assert.match(
      toolResultText(server, "call_read"),
      /const x = 'buffer';/,
    );
    assert.ok(client.reads.includes(file));
    // The edit went to the editor; the disk is untouched.
    assert.deepEqual(client.writes, [
      { path: file, content: "const x = 'edited';\n" },
      { path: file, content: "let x = 'edited';\n" },
    ]);
    assert.equal(await Deno.readTextFile(file), "const x = 'disk';\n");

    // Asked once, for the first edit, with the options in order; "allow
    // always" covered the second.
    assert.equal(client.permissionRequests.length, 1);
    const asked = client.permissionRequests[0];
    assert.equal(asked.toolCall.toolCallId, "call_edit");
    assert.deepEqual(asked.options.map((o) => o.kind), [
      "allow_once",
      "allow_always",
      "reject_once",
    ]);

    const calls = client.updatesOf("tool_call");
    assert.deepEqual(
      calls.map((c) => [c.toolCallId, c.kind, c.status]),
      [
        ["call_read", "read", "pending"],
        ["call_edit", "edit", "pending"],
        ["call_edit_again", "edit", "pending"],
      ],
    );
    assert.deepEqual(calls[0].locations, [{ path: file }]);
    const done = client.updatesOf("tool_call_update");
    const read = done.find((u) => u.toolCallId === "call_read")!;
    assert.equal(read.status, "completed");
    assert.equal(read.kind, "read");
    const edit = done.find((u) => u.toolCallId === "call_edit")!;
    assert.equal(edit.status, "completed");
    assert.equal(edit.kind, "edit");
    assert.deepEqual(edit.content, [{
      type: "diff",
      path: file,
      oldText: "const x = 'buffer';\n",
      newText: "const x = 'edited';\n",
    }]);
    assert.equal(client.text, "Edited.");
  }, (dir) => ({
    client: {
      buffers: new Map([[join(dir, "a.ts"), "const x = 'buffer';\n"]]),
      permission: () => "allow_always",
    },
  }));
});

Deno.test("createAcpAgent() asks with and reports the diff of an EditSymbol call on the client's buffer", async () => {
  await withAcpSession([{
    match: "edit by symbol",
    replies: [
      {
        toolCalls: [{
          id: "call_read",
          name: "ReadFile",
          arguments: { path: "a.ts", symbol: "Box.open" },
        }],
      },
      {
        toolCalls: [{
          id: "call_symbol",
          name: "EditSymbol",
          arguments: {
            path: "a.ts",
            symbol: "Box.open",
            newText: "  open(): number {\n    return 1;\n  }\n",
          },
        }],
      },
      { text: "Edited." },
    ],
  }], async ({ client, ask }, { dir, server }) => {
    const file = join(dir, "a.ts");
    await Deno.writeTextFile(file, "on disk\n");
    const response = await ask("edit by symbol in a.ts");
    assert.equal(response.stopReason, "end_turn");
    // Found in the unsaved buffer, not on disk.
    assert.match(
      toolResultText(server, "call_read"),
      /^2\t {2}\/\*\* Opens\. \*\/\n3\t {2}open\(\): void \{\}\n/,
    );
    const edited =
      "class Box {\r\n  open(): number {\r\n    return 1;\r\n  }\r\n}\r\n";
    assert.deepEqual(client.writes, [{ path: file, content: edited }]);
    assert.equal(await Deno.readTextFile(file), "on disk\n");
    const call = client.updatesOf("tool_call").find((c) =>
      c.toolCallId === "call_symbol"
    )!;
    assert.equal(call.title, "Edit Box.open in a.ts");
    assert.equal(call.kind, "edit");
    const done = client.updatesOf("tool_call_update").find((u) =>
      u.toolCallId === "call_symbol" && u.status === "completed"
    )!;
    assert.deepEqual(done.content, [{
      type: "diff",
      path: file,
      oldText: BOX,
      newText: edited,
    }]);
    // The editor was asked with the same diff, found before the edit ran.
    assert.equal(client.permissionRequests.length, 1);
    assert.deepEqual(client.permissionRequests[0].toolCall.content, [{
      type: "diff",
      path: file,
      oldText: BOX,
      newText: edited,
    }]);
  }, (dir) => ({
    client: {
      buffers: new Map([[join(dir, "a.ts"), BOX]]),
      permission: () => "allow_once",
    },
  }));
});

const BOX = "class Box {\r\n  /** Opens. */\r\n  open(): void {}\r\n}\r\n";

Deno.test("createAcpAgent() maps a rejected permission onto a refused tool call", async () => {
  await withAcpSession([{
    match: "write a file",
    replies: callThen({
      id: "call_write",
      name: "WriteFile",
      arguments: { path: "new.txt", content: "hello" },
    }, "I was not allowed to."),
  }], async ({ client, ask }, { dir, server }) => {
    const response = await ask("write a file please");
    assert.equal(response.stopReason, "end_turn");
    assert.equal(client.permissionRequests.length, 1);
    assert.match(toolResultText(server, "call_write"), /Refused by the user/);
    await assert.rejects(
      () => Deno.stat(join(dir, "new.txt")),
      Deno.errors.NotFound,
    );
    const update = client.updatesOf("tool_call_update")
      .find((u) => u.toolCallId === "call_write")!;
    assert.equal(update.status, "failed");
    assert.equal(client.text, "I was not allowed to.");
  }, { client: { permission: () => "reject" } });
});

Deno.test("createAcpAgent() stops a long Shell on session/cancel and answers cancelled", async () => {
  await withAcpSession([{
    match: "run something long",
    replies: callThen({
      id: "call_sleep",
      name: "Shell",
      arguments: { command: "echo $$ > shell.pid; exec sleep 60" },
    }, "never reached"),
  }], async ({ client, sessionId, ask, cancel }, { dir, server }) => {
    const started = Date.now();
    const answer = ask("run something long");
    const pidFile = join(dir, "shell.pid");
    await client.waitFor(() => {
      try {
        return Deno.readTextFileSync(pidFile).trim() !== "";
      } catch {
        return false;
      }
    });
    const pid = Number(Deno.readTextFileSync(pidFile).trim());
    assert.ok(isAlive(pid));
    await cancel(sessionId);
    const response = await answer;
    assert.equal(response.stopReason, "cancelled");
    assert.ok(await waitUntilGone(pid), `"sleep 60" (pid ${pid}) survived`);
    assert.ok(
      Date.now() - started < 30_000,
      "the cancel did not wait for sleep",
    );
    const update = client.updatesOf("tool_call_update")
      .find((u) => u.toolCallId === "call_sleep");
    assert.equal(update?.status, "failed");
    // The model was asked once: the run stopped instead of going on.
    assert.equal(server.requests.length, 1);
  }, { sandbox: "off" }); // its pid file needs the host's pid
});

Deno.test("createAcpAgent() answers bad requests with errors and keeps serving", async () => {
  await withWorkspace(async (dir) => {
    // Knows no conversation: every model request fails with a 400.
    await using server = startScriptedServer([]);
    let asked = 0;
    const agent = await connect(server, undefined, {
      model: undefined,
      chooseModel: () => {
        asked++;
        return asked === 1
          ? Promise.reject(new Error("the endpoint lists no models"))
          : Promise.resolve("late-model");
      },
    });
    try {
      await assert.rejects(
        () => agent.newSession(dir),
        /cannot start a session: the endpoint lists no models/,
      );
      await assert.rejects(
        () => agent.newSession("rel/dir"),
        /cwd must be an absolute path/,
      );
      await assert.rejects(
        () => agent.prompt("nope", "hi"),
        /unknown session "nope"/,
      );
      // The model is asked for again, and this time the session starts.
      const sessionId = await agent.newSession(dir);
      assert.equal(typeof sessionId, "string");
      // The endpoint refuses: the prompt fails with an error naming it.
      await assert.rejects(
        () => agent.prompt(sessionId, "hi"),
        (error: Error) => {
          assert.match(error.message, /400/);
          assert.ok(error.message.includes(server.baseURL), error.message);
          return true;
        },
      );
    } finally {
      agent.connection.close();
    }
  });
});

Deno.test("createAcpAgent() answers an empty prompt with invalid params or an empty turn", async () => {
  await withAcpSession([], async ({ ask }) => {
    let answer: acp.PromptResponse | undefined;
    try {
      answer = await ask([]);
    } catch (error) {
      const { code, message } = error as Error & { code?: number };
      assert.equal(code, -32602, message);
    }
    if (answer) assert.equal(answer.stopReason, "end_turn");
  });
});

Deno.test("createAcpAgent() ends a prompt waiting on a permission answer on session/cancel", async () => {
  let answer: (optionId: string) => void = () => {};
  await withAcpSession([{
    match: "write while I think",
    replies: callThen({
      id: "call_write",
      name: "WriteFile",
      arguments: { path: "late.txt", content: "x" },
    }, "never reached"),
  }], async ({ client, sessionId, ask, cancel }, { dir }) => {
    const response = ask("write while I think");
    await client.waitFor(() => client.permissionRequests.length === 1);
    await cancel(sessionId);
    assert.equal((await response).stopReason, "cancelled");
    answer("allow_once"); // too late: the run is over
    await new Promise((resolve) => setTimeout(resolve, 100));
    await assert.rejects(
      () => Deno.stat(join(dir, "late.txt")),
      Deno.errors.NotFound,
    );
  }, {
    // The person has not decided yet.
    client: {
      permission: () => new Promise<string>((resolve) => (answer = resolve)),
    },
  });
});

Deno.test("createAcpAgent() kills a command running in the client's terminal on session/cancel", async () => {
  await withAcpSession([{
    match: "sleep in the terminal",
    replies: callThen({
      id: "call_sleep",
      name: "Shell",
      arguments: { command: "sleep", args: ["60"] },
    }, "never reached"),
  }], async ({ client, sessionId, ask, cancel }) => {
    const response = ask("sleep in the terminal");
    await client.waitFor(() => client.terminals.size === 1);
    const [terminal] = [...client.terminals.values()];
    assert.equal(terminal.request.command, "sleep");
    assert.deepEqual(terminal.request.args, ["60"]);
    await cancel(sessionId);
    assert.equal((await response).stopReason, "cancelled");
    await client.waitFor(() => terminal.killed, 5_000);
    const status = await terminal.exit;
    assert.equal(status.signal, "SIGKILL");
  }, { client: { terminal: true } });
});

Deno.test("createAcpAgent() shows a local Shell as in_progress and streams its output while it runs", async () => {
  await withAcpSession([{
    match: "run the slow build",
    replies: callThen({
      id: "call_build",
      name: "Shell",
      arguments: {
        command:
          "echo build started; while [ ! -e go ]; do sleep 0.05; done; echo build finished",
      },
    }, "Built."),
  }], async ({ client, ask }, { dir }) => {
    const turn = ask("run the slow build");
    turn.catch(() => {}); // awaited in finally
    const buildUpdates = () =>
      client.updatesOf("tool_call_update").filter((u) =>
        u.toolCallId === "call_build"
      );
    try {
      await client.waitFor(() => client.updatesOf("tool_call").length > 0);
      await client.waitFor(
        () => buildUpdates().some((u) => u.status === "in_progress"),
        5_000,
      ).catch(() => {
        throw new Error(
          `no in_progress update while the command runs: ${
            JSON.stringify(buildUpdates())
          }`,
        );
      });
      await client.waitFor(
        () => JSON.stringify(buildUpdates()).includes("build started"),
        5_000,
      ).catch(() => {
        throw new Error("the command's output so far was not streamed");
      });
    } finally {
      await Deno.writeTextFile(join(dir, "go"), "");
      await turn.catch(() => {});
    }
    assert.equal((await turn).stopReason, "end_turn");
  }, { permissionMode: "allow" });
});

Deno.test("createAcpAgent() reaches an HTTP MCP server and asks before its tools that are not read-only", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "a needle here\n");
    const seen: string[] = [];
    // The search server plus a tool that is not read-only.
    const handler = createMcpHandler(() => {
      const mcp = createSearchMcpServer({ cwd: dir });
      mcp.registerTool(
        "shout",
        {
          description: "Upper-cases text",
          inputSchema: z.object({ text: z.string() }),
        },
        ({ text }) => ({
          content: [{ type: "text", text: text.toUpperCase() }],
        }),
      );
      return mcp;
    });
    const http = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => {
        seen.push(request.headers.get("x-token") ?? "");
        return handler.fetch(request);
      },
    );
    await using server = startScriptedServer([{
      match: "search over http",
      replies: [
        {
          toolCalls: [
            {
              id: "call_http",
              name: "web__search",
              arguments: { pattern: "needle" },
            },
            { id: "call_shout", name: "shout", arguments: { text: "hello" } },
          ],
        },
        { text: "Found it." },
      ],
    }]);
    try {
      const { client, connection, init, ask } = await connectSession(
        server,
        dir,
        {
          mcpServers: [{
            type: "http",
            name: "web",
            url: `http://127.0.0.1:${http.addr.port}/mcp`,
            headers: [{ name: "x-token", value: "secret" }],
          }],
        },
      );
      try {
        assert.equal(init.agentCapabilities?.mcpCapabilities?.http, true);
        const response = await ask("search over http");
        assert.equal(response.stopReason, "end_turn");
        assert.equal(
          toolResultText(server, "call_http"),
          "notes.txt:1: a needle here",
        );
        assert.equal(toolResultText(server, "call_shout"), "HELLO");
        assert.ok(seen.length > 0 && seen.every((token) => token === "secret"));
        // Only the tool that is not read-only asked.
        assert.deepEqual(
          client.permissionRequests.map((r) => r.toolCall.toolCallId),
          ["call_shout"],
        );
      } finally {
        connection.close();
      }
    } finally {
      await handler.close();
      await http.shutdown();
    }
  });
});

Deno.test("createAcpAgent() offers the permission modes as session modes and switches them", async () => {
  await withAcpSession([{
    match: "first write",
    replies: [
      ...callThen({
        id: "call_refused",
        name: "WriteFile",
        arguments: { path: "a.txt", content: "a" },
      }, "Refused."),
      ...callThen({
        id: "call_allowed",
        name: "WriteFile",
        arguments: { path: "b.txt", content: "b" },
      }, "Written."),
    ],
  }], async ({ client, created, sessionId, ask, setMode }, { dir, server }) => {
    // One conversation: the session keeps it, tool steps included, across the
    // two prompts, so the second prompt's first request is turn 2.
    assert.equal(created.modes?.currentModeId, "ask");
    assert.deepEqual(created.modes?.availableModes.map((m) => m.id), [
      "ask",
      "acceptEdits",
      "allow",
      "readOnly",
    ]);

    await setMode(sessionId, "readOnly");
    await ask("first write");
    assert.match(
      toolResultText(server, "call_refused"),
      /mode "readOnly" allows no writes/,
    );
    await assert.rejects(
      () => Deno.stat(join(dir, "a.txt")),
      Deno.errors.NotFound,
    );

    await setMode(sessionId, "acceptEdits");
    await ask("second write");
    assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "b");
    // Neither mode asked the editor.
    assert.equal(client.permissionRequests.length, 0);

    await assert.rejects(
      () => setMode(sessionId, "yolo"),
      /unknown mode "yolo"/,
    );
  });
});

Deno.test("createAcpAgent() advertises session/close, which it implements", async () => {
  await withAcpSession([], async ({ init, sessionId, close }) => {
    await close(sessionId);
    assert.deepEqual(
      init.agentCapabilities?.sessionCapabilities?.close,
      {},
      JSON.stringify(init.agentCapabilities),
    );
  });
});

Deno.test("createAcpAgent() shows a Subagent child's edit to the editor as a diff", async () => {
  await withAcpSession([
    {
      match: "delegate the edit",
      replies: callThen({
        id: "call_sub",
        name: "Subagent",
        arguments: {
          tasks: [{
            description: "write c.txt",
            prompt: "child: write c.txt",
          }],
        },
      }, "Delegated."),
    },
    {
      match: "child: write c.txt",
      replies: callThen({
        id: "call_child_write",
        name: "WriteFile",
        arguments: { path: "c.txt", content: "from the child\n" },
      }, "Written."),
    },
  ], async ({ client, ask }, { dir }) => {
    const response = await ask("delegate the edit");
    assert.equal(response.stopReason, "end_turn");
    // The child did write the file.
    assert.equal(
      await Deno.readTextFile(join(dir, "c.txt")),
      "from the child\n",
    );
    const shown = [
      ...client.updatesOf("tool_call"),
      ...client.updatesOf("tool_call_update"),
    ].flatMap((u) => u.content ?? []);
    assert.ok(
      shown.some((c) =>
        c.type === "diff" && c.path === join(dir, "c.txt") &&
        c.newText === "from the child\n"
      ),
      `no diff for the child's write among ${JSON.stringify(shown)}`,
    );
  }, { permissionMode: "acceptEdits" });
});

Deno.test("createAcpAgent() reports an edit of a file over 1 MiB as an edit, not a new file", async () => {
  await withAcpSession([{
    match: "bump the marker",
    replies: callThen({
      id: "call_edit",
      name: "EditFile",
      arguments: {
        path: "big.ts",
        oldText: "const marker = 1;",
        newText: "const marker = 2;",
      },
    }, "Bumped."),
  }], async ({ client, ask }, { dir }) => {
    await Deno.writeTextFile(
      join(dir, "big.ts"),
      "const marker = 1;\n" + "// filler line of text here\n".repeat(40_000),
    );
    const response = await ask("bump the marker");
    assert.equal(response.stopReason, "end_turn");
    const done = client.updatesOf("tool_call_update").filter((u) =>
      u.toolCallId === "call_edit" && u.status === "completed"
    );
    assert.equal(done.length, 1);
    const diff = done[0].content?.find((c) => c.type === "diff");
    assert.ok(diff?.type === "diff", JSON.stringify(done[0]).slice(0, 300));
    assert.notEqual(
      diff.oldText,
      null,
      `an edit of an existing file shown as a new file (newText: ${diff.newText.length} chars)`,
    );
  }, { permissionMode: "allow" });
});
