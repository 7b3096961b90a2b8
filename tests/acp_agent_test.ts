// The ACP agent driven by the official ACP client side, in process and over
// stdio, against the scripted OpenAI-compatible server.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { z } from "zod";
import { createAcpAgent } from "../protocols/acp_agent.ts";
import { createSearchMcpServer } from "../protocols/mcp_server.ts";
import { TestClient } from "./support/acp_test_client.ts";
import {
  contentText,
  type ScriptedServer,
  startScriptedServer,
  toolMessages,
} from "./support/scripted_server.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const MOD = join(REPO, "mod.ts");

/** Connects a test client to an in-process agent and opens a session. */
async function openSession(
  server: ScriptedServer,
  client: TestClient,
  newSession: Omit<acp.NewSessionRequest, "mcpServers"> & {
    mcpServers?: acp.McpServer[];
  },
) {
  const agent = createAcpAgent({
    baseURL: server.baseURL,
    model: "test-model",
  });
  const connection = client.app.connect(agent);
  const init = await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: client.capabilities,
  });
  const { sessionId } = await connection.agent.request(
    acp.methods.agent.session.new,
    { mcpServers: [], ...newSession },
  );
  const prompt = (text: string) =>
    connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
  return { connection, init, sessionId, prompt };
}

/** The text the model saw as the result of a tool call. */
function toolResult(server: ScriptedServer, toolCallId: string): string {
  for (const request of server.requests) {
    const message = toolMessages(request).find((m) =>
      m.tool_call_id === toolCallId
    );
    if (message) return contentText(message.content);
  }
  throw new Error(`no tool result for ${toolCallId}`);
}

function processAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

Deno.test("acp agent reads through the client's buffers and reports an approved edit as a diff", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_edit_" });
  const file = join(dir, "a.ts");
  await Deno.writeTextFile(file, "const x = 'disk';\n");
  await using server = startScriptedServer([{
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
          arguments: { path: "a.ts", oldText: "'buffer'", newText: "'edited'" },
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
  }]);
  const client = new TestClient({
    buffers: new Map([[file, "const x = 'buffer';\n"]]),
    permission: () => "allow_always",
  });
  try {
    const { connection, init, prompt } = await openSession(server, client, {
      cwd: dir,
    });
    assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
    assert.equal(
      init.agentCapabilities?.promptCapabilities?.embeddedContext,
      true,
    );
    const response = await prompt("read then edit a.ts");
    assert.equal(response.stopReason, "end_turn");

    // The model saw the unsaved buffer, not the disk.
    assert.match(toolResult(server, "call_read"), /const x = 'buffer';/);
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
    connection.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acp agent maps a rejected permission onto a refused tool call", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_refuse_" });
  await using server = startScriptedServer([{
    match: "write a file",
    replies: [
      {
        toolCalls: [{
          id: "call_write",
          name: "WriteFile",
          arguments: { path: "new.txt", content: "hello" },
        }],
      },
      { text: "I was not allowed to." },
    ],
  }]);
  const client = new TestClient({ permission: () => "reject" });
  try {
    const { connection, prompt } = await openSession(server, client, {
      cwd: dir,
    });
    const response = await prompt("write a file please");
    assert.equal(response.stopReason, "end_turn");
    assert.equal(client.permissionRequests.length, 1);
    assert.match(toolResult(server, "call_write"), /Refused by the user/);
    await assert.rejects(
      () => Deno.stat(join(dir, "new.txt")),
      Deno.errors.NotFound,
    );
    const update = client.updatesOf("tool_call_update")
      .find((u) => u.toolCallId === "call_write")!;
    assert.equal(update.status, "failed");
    assert.equal(client.text, "I was not allowed to.");
    connection.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acp agent's session/cancel stops a long Shell and answers cancelled", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_cancel_" });
  await using server = startScriptedServer([{
    match: "run something long",
    replies: [
      {
        toolCalls: [{
          id: "call_sleep",
          name: "Shell",
          arguments: { command: "echo $$ > shell.pid; exec sleep 60" },
        }],
      },
      { text: "never reached" },
    ],
  }]);
  const client = new TestClient();
  try {
    const { connection, sessionId, prompt } = await openSession(
      server,
      client,
      {
        cwd: dir,
      },
    );
    const started = Date.now();
    const answer = prompt("run something long");
    const pidFile = join(dir, "shell.pid");
    await client.waitFor(() => {
      try {
        return Deno.readTextFileSync(pidFile).trim() !== "";
      } catch {
        return false;
      }
    });
    const pid = Number(Deno.readTextFileSync(pidFile).trim());
    assert.ok(processAlive(pid));
    await connection.agent.notify(acp.methods.agent.session.cancel, {
      sessionId,
    });
    const response = await answer;
    assert.equal(response.stopReason, "cancelled");
    await client.waitFor(() => !processAlive(pid), 5_000);
    assert.ok(
      Date.now() - started < 30_000,
      "the cancel did not wait for sleep",
    );
    const update = client.updatesOf("tool_call_update")
      .find((u) => u.toolCallId === "call_sleep");
    assert.equal(update?.status, "failed");
    // The model was asked once: the run stopped instead of going on.
    assert.equal(server.requests.length, 1);
    connection.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acp agent starts the MCP servers of session/new and the model calls their tools", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_mcp_" });
  await Deno.writeTextFile(join(dir, "notes.txt"), "a needle here\n");
  await using server = startScriptedServer([{
    match: "find the needle",
    replies: [
      {
        toolCalls: [{
          id: "call_mcp",
          name: "files__search",
          arguments: { pattern: "needle" },
        }],
      },
      { text: "Found it." },
    ],
  }]);
  const client = new TestClient();
  try {
    const { connection, prompt } = await openSession(server, client, {
      cwd: dir,
      mcpServers: [{
        name: "files",
        command: "sh",
        // Records the server's pid (exec keeps it) to check it is stopped later.
        args: [
          "-c",
          `echo $$ > mcp.pid; exec "${Deno.execPath()}" run -A "${MOD}" mcp --cwd "${dir}"`,
        ],
        env: [{ name: "NO_COLOR", value: "1" }],
      }],
    });
    const response = await prompt("find the needle");
    assert.equal(response.stopReason, "end_turn");
    const offered = server.requests[0].body.tools?.map((t) => t.function.name);
    assert.ok(offered?.includes("files__search"), `offered: ${offered}`);
    assert.ok(offered?.includes("files__file_outline"));
    // A name no built-in tool takes stays as the server gave it.
    assert.ok(offered?.includes("rg"));
    assert.equal(toolResult(server, "call_mcp"), "notes.txt:1: a needle here");
    const call = client.updatesOf("tool_call").find((c) =>
      c.toolCallId === "call_mcp"
    )!;
    assert.equal(call.kind, "read");
    // A read-only MCP tool needs no permission.
    assert.equal(client.permissionRequests.length, 0);
    // The built-in tools are offered too, search among them.
    assert.ok(offered?.includes("search"));
    // Closing the connection stops the session's MCP server.
    const pid = Number((await Deno.readTextFile(join(dir, "mcp.pid"))).trim());
    assert.ok(processAlive(pid));
    connection.close();
    await client.waitFor(() => !processAlive(pid), 10_000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acp agent over stdio: plan updates and Shell in the client's terminal", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_stdio_" });
  await using server = startScriptedServer([{
    match: "plan and run",
    replies: [
      {
        toolCalls: [{
          id: "call_plan",
          name: "Plan",
          arguments: {
            entries: [
              { content: "Say hi", priority: "high", status: "in_progress" },
              { content: "Report", priority: "low", status: "pending" },
            ],
          },
        }],
      },
      {
        toolCalls: [{
          id: "call_shell",
          name: "Shell",
          arguments: { command: "echo hi from the terminal" },
        }],
      },
      { text: "All done." },
    ],
  }]);
  const child = new Deno.Command(Deno.execPath(), {
    // The endpoint from the environment, as for the run command.
    args: ["run", "-A", MOD, "acp", "--model", "m"],
    env: { FELLO_BASE_URL: server.baseURL, FELLO_STATE_DIR: dir },
    cwd: REPO,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const client = new TestClient({ terminal: true });
  try {
    const connection = client.app.connect(
      acp.ndJsonStream(child.stdin, child.stdout),
    );
    const init = await connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: client.capabilities,
    });
    assert.equal(init.agentInfo?.name, "fello");
    // Sessions are saved in the state folder, for session/load.
    assert.equal(init.agentCapabilities?.loadSession, true);
    const { sessionId } = await connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    const response = await connection.agent.request(
      acp.methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text: "plan and run" }] },
    );
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
    assert.match(toolResult(server, "call_shell"), /hi from the terminal/);
    const kinds = client.updatesOf("tool_call").map((
      c,
    ) => [c.toolCallId, c.kind]);
    assert.deepEqual(kinds, [["call_plan", "think"], [
      "call_shell",
      "execute",
    ]]);
    assert.equal(client.text, "All done.");
    const saved = JSON.parse(
      await Deno.readTextFile(join(dir, "acp-sessions", `${sessionId}.json`)),
    );
    assert.equal(saved.cwd, dir);
    assert.equal(saved.messages.at(-1).role, "assistant");
    // Closing its stdin ends the agent cleanly.
    connection.close();
    await child.stdin.close();
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const status = await child.status;
    clearTimeout(timer);
    assert.equal(status.code, 0);
  } finally {
    client.dispose();
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acp agent answers bad requests with errors and keeps serving", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_errors_" });
  // Knows no conversation: every model request fails with a 400.
  await using server = startScriptedServer([]);
  let asked = 0;
  const agent = createAcpAgent({
    baseURL: server.baseURL,
    chooseModel: () => {
      asked++;
      return asked === 1
        ? Promise.reject(new Error("the endpoint lists no models"))
        : Promise.resolve("late-model");
    },
  });
  const client = new TestClient();
  const connection = client.app.connect(agent);
  try {
    const { agent: peer } = connection;
    await peer.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
    });
    await assert.rejects(
      () =>
        peer.request(acp.methods.agent.session.new, {
          cwd: dir,
          mcpServers: [],
        }),
      /cannot start a session: the endpoint lists no models/,
    );
    await assert.rejects(
      () =>
        peer.request(acp.methods.agent.session.new, {
          cwd: "rel/dir",
          mcpServers: [],
        }),
      /cwd must be an absolute path/,
    );
    await assert.rejects(
      () =>
        peer.request(acp.methods.agent.session.prompt, {
          sessionId: "nope",
          prompt: [{ type: "text", text: "hi" }],
        }),
      /unknown session "nope"/,
    );
    // The model is asked for again, and this time the session starts.
    const { sessionId } = await peer.request(acp.methods.agent.session.new, {
      cwd: dir,
      mcpServers: [],
    });
    assert.equal(typeof sessionId, "string");
    // The endpoint refuses: the prompt fails with an error naming it.
    await assert.rejects(
      () =>
        peer.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "hi" }],
        }),
      (error: Error) => {
        assert.match(error.message, /400/);
        assert.ok(error.message.includes(server.baseURL), error.message);
        return true;
      },
    );
  } finally {
    connection.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acp agent's session/cancel ends a prompt waiting on a permission answer", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_cancel_permission_" });
  await using server = startScriptedServer([{
    match: "write while I think",
    replies: [
      {
        toolCalls: [{
          id: "call_write",
          name: "WriteFile",
          arguments: { path: "late.txt", content: "x" },
        }],
      },
      { text: "never reached" },
    ],
  }]);
  let answer: (optionId: string) => void = () => {};
  const client = new TestClient({
    // The person has not decided yet.
    permission: () => new Promise<string>((resolve) => (answer = resolve)),
  });
  try {
    const { connection, sessionId, prompt } = await openSession(
      server,
      client,
      {
        cwd: dir,
      },
    );
    const response = prompt("write while I think");
    await client.waitFor(() => client.permissionRequests.length === 1);
    await connection.agent.notify(acp.methods.agent.session.cancel, {
      sessionId,
    });
    assert.equal((await response).stopReason, "cancelled");
    answer("allow_once"); // too late: the run is over
    await new Promise((resolve) => setTimeout(resolve, 100));
    await assert.rejects(
      () => Deno.stat(join(dir, "late.txt")),
      Deno.errors.NotFound,
    );
    connection.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acp agent's session/cancel kills a command running in the client's terminal", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_cancel_terminal_" });
  await using server = startScriptedServer([{
    match: "sleep in the terminal",
    replies: [
      {
        toolCalls: [{
          id: "call_sleep",
          name: "Shell",
          arguments: { command: "sleep", args: ["60"] },
        }],
      },
      { text: "never reached" },
    ],
  }]);
  const client = new TestClient({ terminal: true });
  try {
    const { connection, sessionId, prompt } = await openSession(
      server,
      client,
      {
        cwd: dir,
      },
    );
    const response = prompt("sleep in the terminal");
    await client.waitFor(() => client.terminals.size === 1);
    const [terminal] = [...client.terminals.values()];
    assert.equal(terminal.request.command, "sleep");
    assert.deepEqual(terminal.request.args, ["60"]);
    await connection.agent.notify(acp.methods.agent.session.cancel, {
      sessionId,
    });
    assert.equal((await response).stopReason, "cancelled");
    await client.waitFor(() => terminal.killed, 5_000);
    const status = await terminal.exit;
    assert.equal(status.signal, "SIGKILL");
    connection.close();
  } finally {
    client.dispose();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acp agent reaches an HTTP MCP server and asks before its tools that are not read-only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_mcp_http_" });
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
      ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
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
  const client = new TestClient();
  try {
    const { connection, init, prompt } = await openSession(server, client, {
      cwd: dir,
      mcpServers: [{
        type: "http",
        name: "web",
        url: `http://127.0.0.1:${http.addr.port}/mcp`,
        headers: [{ name: "x-token", value: "secret" }],
      }],
    });
    assert.equal(init.agentCapabilities?.mcpCapabilities?.http, true);
    const response = await prompt("search over http");
    assert.equal(response.stopReason, "end_turn");
    assert.equal(toolResult(server, "call_http"), "notes.txt:1: a needle here");
    assert.equal(toolResult(server, "call_shout"), "HELLO");
    assert.ok(seen.length > 0 && seen.every((token) => token === "secret"));
    // Only the tool that is not read-only asked.
    assert.deepEqual(
      client.permissionRequests.map((r) => r.toolCall.toolCallId),
      ["call_shout"],
    );
    connection.close();
  } finally {
    await handler.close();
    await http.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acp agent offers the permission modes as session modes and switches them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "acp_modes_" });
  // One conversation: the session keeps it, tool steps included, across the
  // two prompts, so the second prompt's first request is turn 2.
  await using server = startScriptedServer([{
    match: "first write",
    replies: [
      {
        toolCalls: [{
          id: "call_refused",
          name: "WriteFile",
          arguments: { path: "a.txt", content: "a" },
        }],
      },
      { text: "Refused." },
      {
        toolCalls: [{
          id: "call_allowed",
          name: "WriteFile",
          arguments: { path: "b.txt", content: "b" },
        }],
      },
      { text: "Written." },
    ],
  }]);
  const client = new TestClient();
  try {
    const agent = createAcpAgent({ baseURL: server.baseURL, model: "m" });
    const connection = client.app.connect(agent);
    const peer = connection.agent;
    await peer.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
    });
    const created = await peer.request(acp.methods.agent.session.new, {
      cwd: dir,
      mcpServers: [],
    });
    assert.equal(created.modes?.currentModeId, "ask");
    assert.deepEqual(created.modes?.availableModes.map((m) => m.id), [
      "ask",
      "acceptEdits",
      "allow",
      "readOnly",
    ]);
    const { sessionId } = created;
    const prompt = (text: string) =>
      peer.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text }],
      });

    await peer.request(acp.methods.agent.session.setMode, {
      sessionId,
      modeId: "readOnly",
    });
    await prompt("first write");
    assert.match(
      toolResult(server, "call_refused"),
      /mode "readOnly" allows no writes/,
    );
    await assert.rejects(
      () => Deno.stat(join(dir, "a.txt")),
      Deno.errors.NotFound,
    );

    await peer.request(acp.methods.agent.session.setMode, {
      sessionId,
      modeId: "acceptEdits",
    });
    await prompt("second write");
    assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "b");
    // Neither mode asked the editor.
    assert.equal(client.permissionRequests.length, 0);

    await assert.rejects(
      () =>
        peer.request(acp.methods.agent.session.setMode, {
          sessionId,
          modeId: "yolo",
        }),
      /unknown mode "yolo"/,
    );
    connection.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
