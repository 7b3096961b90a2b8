// The ACP agent as an editor runs it: `fello acp` over stdio (plans, the
// editor's terminal, big files through its fs, ending on SIGTERM or a closed
// stdin) and the MCP server processes that session/new starts.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { connect, withAcpSession } from "./support/acp_connect.ts";
import {
  type AcpProcess,
  type AcpStdioConnection,
  connectStdio,
  spawnAcp,
} from "./support/acp_process.ts";
import { TestClient } from "./support/acp_test_client.ts";
import { MOD } from "./support/fello_cli.ts";
import { isAlive, waitForPid, waitUntilGone } from "./support/processes.ts";
import {
  callThen,
  type ScriptedServer,
  startScriptedServer,
  toolResultText,
} from "./support/scripted_server.ts";
import { withWorkspace } from "./support/workspace.ts";

/** The shell command that runs `fello mcp` for `dir`. */
function mcpCommand(dir: string): string {
  return `exec "${Deno.execPath()}" run -A "${MOD}" mcp --cwd "${dir}"`;
}

Deno.test("fello acp over stdio: plan updates and Shell in the client's terminal", async () => {
  await withWorkspace(async (dir) => {
    const entries = [
      { content: "Say hi", priority: "high", status: "in_progress" },
      { content: "Report", priority: "low", status: "pending" },
    ];
    await using server = startScriptedServer([{
      match: "plan and run",
      replies: [
        {
          toolCalls: [{
            id: "call_plan",
            name: "Plan",
            arguments: { entries },
          }],
        },
        ...callThen({
          id: "call_shell",
          name: "Shell",
          arguments: { command: "echo hi from the terminal" },
        }, "All done."),
      ],
    }]);
    // The endpoint from the environment, as for the run command.
    await using agent = spawnAcp(["--model", "m"], {
      cwd: dir,
      env: { FELLO_BASE_URL: server.baseURL, FELLO_STATE_DIR: dir },
      stderr: "inherit",
    });
    const client = new TestClient({ terminal: true });
    try {
      const editor = await connectStdio(client.app, agent, client.capabilities);
      assert.equal(editor.init.agentInfo?.name, "fello");
      // Sessions are saved in the state folder, for session/load.
      assert.equal(editor.init.agentCapabilities?.loadSession, true);
      const sessionId = await editor.newSession(dir);
      const response = await editor.prompt(sessionId, "plan and run");
      assert.equal(response.stopReason, "end_turn");

      assert.deepEqual(client.updatesOf("plan").map((u) => u.entries), [[
        { content: "Say hi", priority: "high", status: "in_progress" },
        { content: "Report", priority: "low", status: "pending" },
      ]]);
      const [terminal] = [...client.terminals.values()];
      assert.equal(terminal.request.command, "sh");
      assert.deepEqual(terminal.request.args, [
        "-c",
        "echo hi from the terminal",
      ]);
      assert.equal(terminal.request.cwd, dir);
      const shellUpdates = client.updatesOf("tool_call_update")
        .filter((u) => u.toolCallId === "call_shell");
      assert.deepEqual(shellUpdates.at(-1)?.content, [{
        type: "terminal",
        terminalId: "term-1",
      }]);
      assert.equal(shellUpdates.at(-1)?.status, "completed");
      assert.match(
        toolResultText(server, "call_shell"),
        /hi from the terminal/,
      );
      const kinds = client.updatesOf("tool_call")
        .map((c) => [c.toolCallId, c.kind]);
      assert.deepEqual(kinds, [
        ["call_plan", "think"],
        ["call_shell", "execute"],
      ]);
      assert.equal(client.text, "All done.");
      const saved = JSON.parse(
        await Deno.readTextFile(join(dir, "acp-sessions", `${sessionId}.json`)),
      );
      assert.equal(saved.cwd, dir);
      assert.equal(saved.messages.at(-1).role, "assistant");
      // Closing its stdin ends the agent cleanly.
      editor.connection.close();
      assert.equal((await agent.stop()).code, 0);
    } finally {
      client.dispose();
    }
  });
});

/** The flags of a `fello acp` for `server` that allows every tool. */
function allowAll(server: ScriptedServer): string[] {
  return [
    ...["--model", "m", "--base-url", server.baseURL],
    ...["--permission-mode", "allow"],
  ];
}

/**
 * Runs `fn` once a prompt's Shell command (pid `pid`) sleeps in a `fello acp`
 * that allows every tool; kills the command should it outlive the test.
 */
function whileShellSleeps(
  fn: (
    agent: AcpProcess,
    editor: AcpStdioConnection,
    pid: number,
  ) => Promise<void>,
): Promise<void> {
  return withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "sleep",
      replies: callThen({
        id: "call_sleep",
        name: "Shell",
        arguments: { command: "echo $$ > pid.txt; exec sleep 60" },
      }, "never reached"),
    }]);
    await using agent = spawnAcp(allowAll(server), {
      cwd: dir,
      env: { FELLO_STATE_DIR: dir },
    });
    let pid = 0;
    try {
      const editor = await connectStdio(new TestClient().app, agent);
      const sessionId = await editor.newSession(dir);
      // The connection closes under it.
      editor.prompt(sessionId, "sleep a minute").catch(() => {});
      pid = await waitForPid(join(dir, "pid.txt"));
      await fn(agent, editor, pid);
    } finally {
      if (pid > 0 && isAlive(pid)) Deno.kill(pid, "SIGKILL");
    }
  });
}

Deno.test("fello acp whose editor closes stdin mid-Shell exits 0 and kills the command", async () => {
  await whileShellSleeps(async (agent, editor, pid) => {
    editor.connection.close();
    assert.equal((await agent.stop()).code, 0);
    assert.ok(await waitUntilGone(pid), `"sleep 60" (pid ${pid}) survived`);
  });
});

Deno.test("fello acp stopped with SIGTERM kills the Shell command it is running", async () => {
  await whileShellSleeps(async (agent, editor, pid) => {
    agent.child.kill("SIGTERM");
    await agent.child.status;
    assert.ok(
      await waitUntilGone(pid),
      `the Shell's "sleep 60" (pid ${pid}) outlived the agent`,
    );
    editor.connection.close();
  });
});

Deno.test("fello acp reads 3 lines of a 33 MiB file through an editor's fs without dying", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "big.log");
    // 64-byte lines, over 32 MiB (the ACP SDK's message limit) in all.
    const lines = Array.from(
      { length: (33 * 1024 * 1024) / 64 },
      (_, i) => `row ${String(i + 1).padStart(8, "0")} `.padEnd(63, "x"),
    );
    const text = lines.join("\n") + "\n";
    await Deno.writeTextFile(path, text);
    await using server = startScriptedServer([{
      match: "read the head of big.log",
      replies: callThen({
        id: "call_head",
        name: "ReadFile",
        arguments: { path: "big.log", line: 1, limit: 3 },
      }, "Read it."),
    }]);
    // An editor that serves `line`/`limit` the way ACP defines them.
    const asked: acp.ReadTextFileRequest[] = [];
    const app = acp.client({ name: "big-file-editor" })
      .onNotification(acp.methods.client.session.update, () => {})
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        asked.push(params);
        if (params.path !== path) {
          throw acp.RequestError.resourceNotFound(params.path);
        }
        if (params.line == null && params.limit == null) {
          return { content: text };
        }
        const start = (params.line ?? 1) - 1;
        const end = params.limit == null ? undefined : start + params.limit;
        return { content: lines.slice(start, end).join("\n") + "\n" };
      });
    await using agent = spawnAcp(allowAll(server), {
      cwd: dir,
      env: { FELLO_STATE_DIR: dir },
    });
    const editor = await connectStdio(app, agent, {
      fs: { readTextFile: true, writeTextFile: true },
    });
    const sessionId = await editor.newSession(dir);
    const response = await editor.prompt(sessionId, "read the head of big.log");
    assert.equal(response.stopReason, "end_turn");
    assert.match(toolResultText(server, "call_head"), /row 00000003/);
    // A file that large on disk is read from disk, never asked for whole.
    assert.deepEqual(
      asked.filter((p) => p.line == null && p.limit == null),
      [],
      "the editor was asked for the whole text",
    );
    editor.connection.close();
  });
});

Deno.test("createAcpAgent() starts the MCP servers of session/new and the model calls their tools", async () => {
  await withAcpSession([{
    match: "find the needle",
    replies: callThen({
      id: "call_mcp",
      name: "files__search",
      arguments: { pattern: "needle" },
    }, "Found it."),
  }], async ({ client, connection, ask }, { dir, server }) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "a needle here\n");
    const response = await ask("find the needle");
    assert.equal(response.stopReason, "end_turn");
    const offered = server.requests[0].body.tools?.map((t) => t.function.name);
    assert.ok(offered?.includes("files__search"), `offered: ${offered}`);
    assert.ok(offered?.includes("files__file_outline"));
    // A name no built-in tool takes stays as the server gave it.
    assert.ok(offered?.includes("rg"));
    assert.equal(
      toolResultText(server, "call_mcp"),
      "notes.txt:1: a needle here",
    );
    const call = client.updatesOf("tool_call").find((c) =>
      c.toolCallId === "call_mcp"
    )!;
    assert.equal(call.kind, "read");
    // A read-only MCP tool needs no permission.
    assert.equal(client.permissionRequests.length, 0);
    // The built-in tools are offered too, search among them.
    assert.ok(offered?.includes("search"));
    // Closing the connection stops the session's MCP server.
    const pid = await waitForPid(join(dir, "mcp.pid"));
    assert.ok(isAlive(pid));
    connection.close();
    await client.waitFor(() => !isAlive(pid), 10_000);
  }, (dir) => ({
    mcpServers: [{
      name: "files",
      command: "sh",
      // Records the server's pid (exec keeps it) to check it is stopped later.
      args: ["-c", `echo $$ > mcp.pid; ${mcpCommand(dir)}`],
      env: [{ name: "NO_COLOR", value: "1" }],
    }],
  }));
});

Deno.test("createAcpAgent() starts the MCP servers session/new lists at the same time", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([]);
    // The first server waits (up to 10 s) until the second one has started.
    const first = [
      "touch first.started",
      "i=0",
      "while [ ! -e second.started ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done",
      mcpCommand(dir),
    ].join("; ");
    const second = `touch second.started; ${mcpCommand(dir)}`;
    const { client, connection } = await connect(server);
    const created = connection.agent.request(acp.methods.agent.session.new, {
      cwd: dir,
      mcpServers: [
        { name: "first", command: "sh", args: ["-c", first], env: [] },
        { name: "second", command: "sh", args: ["-c", second], env: [] },
      ],
    });
    created.catch(() => {}); // awaited in finally
    const started = (name: string) => {
      try {
        Deno.statSync(join(dir, `${name}.started`));
        return true;
      } catch {
        return false;
      }
    };
    try {
      await client.waitFor(() => started("first"));
      await client.waitFor(() => started("second"), 5_000).catch(() => {
        throw new Error(
          "the second MCP server was not started while the first one was",
        );
      });
    } finally {
      // Lets the first server go on, so that the session starts and closes.
      await Deno.writeTextFile(join(dir, "second.started"), "");
      await created.catch(() => {});
      connection.close();
    }
    assert.equal(typeof (await created).sessionId, "string");
  });
});

Deno.test("fello acp takes its endpoint, model, mode and rules from the settings files, with no flags", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "clean up",
      replies: [
        {
          toolCalls: [{
            id: "call_rm",
            name: "Shell",
            arguments: { command: "rm -f keep.txt" },
          }],
        },
        ...callThen({
          id: "call_ls",
          name: "Shell",
          arguments: { command: "echo listed" },
        }, "Could not remove it."),
      ],
    }]);
    const ws = join(dir, "ws");
    await Deno.mkdir(join(dir, "user-config", "fello"), { recursive: true });
    await Deno.mkdir(join(ws, ".fello"), { recursive: true });
    await Deno.writeTextFile(join(ws, "keep.txt"), "kept\n");
    await Deno.writeTextFile(
      join(dir, "user-config", "fello", "config.json"),
      JSON.stringify({
        baseURL: server.baseURL,
        model: "user-model",
        permissionMode: "allow",
        sandbox: "off",
      }),
    );
    // A workspace's deny rules apply without trust.
    await Deno.writeTextFile(
      join(ws, ".fello", "config.json"),
      JSON.stringify({ permissions: { deny: ["Shell(rm *)"] } }),
    );
    await using agent = spawnAcp([], {
      cwd: ws,
      env: {
        XDG_CONFIG_HOME: join(dir, "user-config"),
        FELLO_STATE_DIR: join(dir, "state"),
      },
    });
    const client = new TestClient();
    try {
      const editor = await connectStdio(client.app, agent, client.capabilities);
      const sessionId = await editor.newSession(ws);
      const response = await editor.prompt(sessionId, "clean up");
      assert.equal(response.stopReason, "end_turn");
      assert.equal(server.requests[0].body.model, "user-model");
      assert.match(
        toolResultText(server, "call_rm"),
        /deny rule "Shell\(rm \*\)"/,
      );
      // Allow mode from the user's file: asked nothing.
      assert.match(toolResultText(server, "call_ls"), /listed/);
      assert.equal(client.permissionRequests.length, 0);
      assert.equal(await Deno.readTextFile(join(ws, "keep.txt")), "kept\n");
      editor.connection.close();
    } finally {
      client.dispose();
    }
  });
});
