// The Search MCP server and the ACP agent as the issue states them, checked
// from outside: the official MCP client and the official ACP client side
// drive `deno run -A mod.ts mcp|acp` over stdio.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { chooseKind, TestClient } from "./support/acp_test_client.ts";
import { connectStdio, spawnAcp } from "./support/acp_process.ts";
import { baseEnv, MOD } from "./support/fello_cli.ts";
import { callText, connectMcp } from "./support/mcp_client.ts";
import { waitUntilGone } from "./support/processes.ts";
import { hasRipgrep } from "./support/ripgrep.ts";
import {
  callsTool,
  callThen,
  contentText,
  type RecordedRequest,
  startScriptedServer,
  toolMessages,
} from "./support/scripted_server.ts";
import { withWorkspace, writeFiles } from "./support/workspace.ts";

/** The `path:line: text` lines of a search answer. */
function matchLines(text: string): string[] {
  return text.split("\n").filter((line) => /^[^\s:]+:\d+: /.test(line));
}

/** The requests of one scripted conversation. */
function requestsOf(
  requests: RecordedRequest[],
  match: string,
): RecordedRequest[] {
  return requests.filter((r) => r.conversation === match);
}

Deno.test("fello mcp lists file_outline, search and rg, and search and rg answer as the issue says", async () => {
  await withWorkspace(async (cwd) => {
    await writeFiles(cwd, {
      ".gitignore": "ignored.txt\n",
      "src/a.ts": "// header\nconst needle = 1;\nconst Needle = 2;\n" +
        "const dots = 'a.c';\nconst abc = 'abc';\nconst n7 = 'needle7';\n",
      "docs/readme.md": "a needle in the docs\n",
      "ignored.txt": "needle ignored\n",
      "node_modules/pkg/index.js": "needle in node_modules\n",
      ".git/config": "needle in git\n",
      "bin.dat": new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1, 2, 0]),
      "many.txt": Array.from({ length: 30 }, (_, i) => `hit ${i}`).join("\n"),
      "big.txt": "zebra crossing on a long enough line of text\n".repeat(
        20_000,
      ),
    });
    // No --cwd: the server's workspace is the folder it runs in.
    const client = await connectMcp({ cwd, env: baseEnv(), stderr: "ignore" });
    const call = (name: string, args: Record<string, unknown>) =>
      callText(client, name, args);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of ["file_outline", "search", "rg"]) {
        assert.ok(names.includes(name), `${name} missing from ${names}`);
      }

      // Literal and case-sensitive by default; skips ignored places.
      const plain = await call("search", { pattern: "needle" });
      assert.ok(!plain.isError, plain.text);
      const lines = matchLines(plain.text);
      assert.ok(lines.includes("src/a.ts:2: const needle = 1;"), plain.text);
      assert.ok(lines.includes("docs/readme.md:1: a needle in the docs"));
      assert.ok(!plain.text.includes("Needle = 2"), "case-sensitive");
      for (const skipped of ["ignored", "node_modules", "in git", "bin.dat"]) {
        assert.ok(!plain.text.includes(skipped), `${skipped}: ${plain.text}`);
      }

      const anyCase = await call("search", {
        pattern: "NEEDLE",
        caseSensitive: false,
        path: "src",
      });
      assert.equal(matchLines(anyCase.text).length, 3, anyCase.text);

      const literal = await call("search", { pattern: "a.c" });
      assert.deepEqual(matchLines(literal.text), [
        "src/a.ts:4: const dots = 'a.c';",
      ]);
      const regex = await call("search", { pattern: "needle\\d", regex: true });
      assert.deepEqual(matchLines(regex.text), [
        "src/a.ts:6: const n7 = 'needle7';",
      ]);

      const globbed = await call("search", { pattern: "needle", glob: "*.md" });
      assert.deepEqual(matchLines(globbed.text), [
        "docs/readme.md:1: a needle in the docs",
      ]);

      const capped = await call("search", { pattern: "hit", maxResults: 5 });
      assert.equal(matchLines(capped.text).length, 5, capped.text);
      const note = capped.text.split("\n").filter((l) =>
        l.trim() !== "" && !/^[^\s:]+:\d+: /.test(l)
      );
      assert.ok(
        note.length > 0,
        `no note that results were cut: ${capped.text}`,
      );
      const uncapped = await call("search", { pattern: "hit 29" });
      assert.deepEqual(matchLines(uncapped.text), ["many.txt:30: hit 29"]);

      // Errors are results, and the server keeps serving.
      const badRegex = await call("search", { pattern: "(", regex: true });
      assert.ok(badRegex.isError, badRegex.text);
      const badInput = await call("search", { pattern: 42 });
      assert.ok(badInput.isError, badInput.text);
      const missing = await call("file_outline", { path: "nope.ts" });
      assert.ok(missing.isError, missing.text);
      assert.match(missing.text, /nope\.ts/);
      const outline = await call("file_outline", { path: "src/a.ts" });
      assert.ok(!outline.isError, outline.text);
      assert.match(outline.text, /needle/);

      if (hasRipgrep()) {
        const rg = await call("rg", { args: ["-n", "needle7", "src"] });
        assert.ok(!rg.isError, rg.text);
        assert.match(rg.text, /needle7/);
        // Bounded output: far less than the 20,000 matching lines.
        const flood = await call("rg", { args: ["zebra"] });
        assert.ok(!flood.isError, flood.text.slice(0, 200));
        assert.ok(
          flood.text.split("\n").length < 20_000,
          "rg output is bounded",
        );
      }
    } finally {
      await client.close();
    }
  });
});

Deno.test("fello acp over stdio: initialize, session/new, tool calls, permissions and cancel", async () => {
  await withWorkspace(async (cwd) => {
    await Deno.writeTextFile(join(cwd, "notes.txt"), "acp-file-content\n");
    await using server = startScriptedServer([
      {
        match: "contract-acp-read",
        replies: [
          {
            toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }],
          },
          {
            compute: (request) => ({
              text: toolMessages(request).map((m) => contentText(m.content))
                  .join("").includes("acp-file-content")
                ? "The notes say acp."
                : "no file",
            }),
          },
        ],
      },
      {
        match: "contract-acp-refuse",
        replies: callThen({
          name: "WriteFile",
          arguments: { path: "new.txt", content: "x" },
        }, "ok, not writing"),
      },
      {
        match: "contract-acp-bad",
        replies: [
          {
            toolCalls: [
              { name: "NoSuchTool", arguments: {} },
              { name: "ReadFile", arguments: "{not json" },
              { name: "ReadFile", arguments: { path: 3 } },
            ],
          },
          { text: "went on" },
        ],
      },
      {
        match: "contract-acp-cancel",
        replies: callThen({
          name: "Shell",
          arguments: { command: "echo $$ > pid.txt; exec sleep 30" },
        }, "never"),
      },
    ]);
    await using agent = spawnAcp(
      // --sandbox off: the Shell's pid file needs the host's pid.
      [
        "--base-url",
        server.baseURL,
        "--model",
        "acp-model",
        "--sandbox",
        "off",
      ],
      { cwd, env: { FELLO_STATE_DIR: cwd } },
    );
    let answer: "allow_once" | "reject_once" = "allow_once";
    const client = new TestClient({
      permission: (request) => chooseKind(answer)(request),
    });
    const editor = await connectStdio(client.app, agent);
    try {
      assert.equal(editor.init.protocolVersion, acp.PROTOCOL_VERSION);
      assert.ok(editor.init.agentCapabilities, "advertises its capabilities");

      // A prompt with a ReadFile: tool_call, then tool_call_update, then text.
      const read = await editor.newSession(cwd);
      const readTurn = await editor.prompt(read, "contract-acp-read the notes");
      assert.equal(readTurn.stopReason, "end_turn");
      const chunks = client.updatesOf("agent_message_chunk", read)
        .map((u) => u.content.type === "text" ? u.content.text : "").join("");
      assert.equal(chunks, "The notes say acp.");
      const calls = client.updatesOf("tool_call", read);
      assert.equal(calls.length, 1);
      const [call] = calls;
      assert.equal(call.kind, "read");
      const callUpdates = client.updatesOf("tool_call_update", read)
        .filter((u) => u.toolCallId === call.toolCallId);
      assert.ok(callUpdates.length > 0, "a tool_call_update follows");
      assert.equal(callUpdates.at(-1)!.status, "completed");
      const order = client.updates.map((n) => n.update.sessionUpdate);
      assert.ok(
        order.indexOf("tool_call") < order.indexOf("tool_call_update"),
      );

      // A refused permission: options in order, nothing written.
      answer = "reject_once";
      const refuse = await editor.newSession(cwd);
      const refuseTurn = await editor.prompt(
        refuse,
        "contract-acp-refuse write",
      );
      assert.equal(refuseTurn.stopReason, "end_turn");
      assert.equal(client.permissionRequests.length, 1);
      const kinds = client.permissionRequests[0].options.map((o) => o.kind);
      assert.deepEqual(kinds, ["allow_once", "allow_always", "reject_once"]);
      await assert.rejects(
        Deno.stat(join(cwd, "new.txt")),
        Deno.errors.NotFound,
      );
      const refused = client.updatesOf("tool_call_update", refuse).at(-1);
      assert.equal(refused?.status, "failed");
      const refuseRequests = requestsOf(
        server.requests,
        "contract-acp-refuse",
      );
      assert.equal(refuseRequests.length, 2, "the loop went on");
      assert.match(
        contentText(toolMessages(refuseRequests[1])[0]?.content),
        /new\.txt/,
      );

      // Every tool call, even an unknown tool or unparsable input, is
      // announced as tool_call before its tool_call_update.
      const bad = await editor.newSession(cwd);
      const badTurn = await editor.prompt(bad, "contract-acp-bad calls");
      assert.equal(badTurn.stopReason, "end_turn");
      const announced = new Set<string>();
      const failed = new Set<string>();
      for (const n of client.updates) {
        if (n.sessionId !== bad) continue;
        const u = n.update;
        if (u.sessionUpdate === "tool_call") announced.add(u.toolCallId);
        if (u.sessionUpdate === "tool_call_update") {
          assert.ok(
            announced.has(u.toolCallId),
            `tool_call_update before tool_call for ${u.toolCallId}`,
          );
          if (u.status === "failed") failed.add(u.toolCallId);
        }
      }
      assert.equal(announced.size, 3);
      assert.equal(failed.size, 3);

      // Cancel during a long Shell: the run stops with `cancelled`.
      answer = "allow_once";
      const cancel = await editor.newSession(cwd);
      const turn = editor.prompt(cancel, "contract-acp-cancel sleep");
      turn.catch(() => {});
      let pid = 0;
      await client.waitFor(() => {
        try {
          pid = Number(Deno.readTextFileSync(join(cwd, "pid.txt")).trim());
        } catch { /* not yet */ }
        return pid > 0;
      });
      const shellCall = client.updatesOf("tool_call", cancel).at(-1);
      assert.equal(shellCall?.kind, "execute");
      await editor.cancel(cancel);
      assert.equal((await turn).stopReason, "cancelled");
      assert.ok(await waitUntilGone(pid), `Shell process ${pid} survived`);
    } finally {
      editor.connection.close();
    }
  });
});

Deno.test("fello acp over stdio: the editor's files, edits as diffs, plan updates and an MCP server from session/new", async () => {
  await withWorkspace(async (cwd) => {
    const file = join(cwd, "buffer.txt");
    await Deno.writeTextFile(file, "on disk\n");
    await Deno.writeTextFile(
      join(cwd, "outlined.ts"),
      "export function outlinedFn(): void {}\n",
    );
    let seen = "";
    let mcpTool = "";
    const grab = (request: RecordedRequest) => {
      seen = toolMessages(request).map((m) => contentText(m.content))
        .join("\n");
      return { text: "done" };
    };
    const entries = [{
      content: "Edit buffer",
      priority: "high",
      status: "completed",
    }];
    await using server = startScriptedServer([
      {
        match: "contract-acp-fs",
        replies: [
          callsTool("ReadFile", { path: "buffer.txt" }),
          {
            toolCalls: [{
              name: "EditFile",
              arguments: {
                path: "buffer.txt",
                oldText: "unsaved",
                newText: "saved",
              },
            }],
          },
          callsTool("Plan", { entries }),
          { compute: grab },
        ],
      },
      {
        match: "contract-acp-mcp",
        replies: [
          {
            compute: (request) => {
              const names = (request.body.tools ?? []).map((t) =>
                t.function.name
              );
              mcpTool = names.find((n) =>
                n !== "file_outline" && n.endsWith("file_outline")
              ) ?? "";
              return {
                toolCalls: [{
                  name: mcpTool || "missing_mcp_tool",
                  arguments: { path: join(cwd, "outlined.ts") },
                }],
              };
            },
          },
          { compute: grab },
        ],
      },
    ]);

    // The endpoint from the environment this time, as for the CLI.
    await using agent = spawnAcp([], {
      cwd,
      env: {
        FELLO_BASE_URL: server.baseURL,
        FELLO_MODEL: "env-model",
        FELLO_STATE_DIR: cwd,
      },
    });
    const buffers = new Map([[file, "unsaved buffer\n"]]);
    const client = new TestClient({
      buffers,
      permission: chooseKind("allow_once"),
    });
    const editor = await connectStdio(client.app, agent, {
      fs: { readTextFile: true, writeTextFile: true },
    });
    const kindsOf = (sessionId: string) =>
      client.updatesOf("tool_call", sessionId).map((u) => u.kind);
    try {
      const fs = await editor.newSession(cwd);
      const turn = await editor.prompt(fs, "contract-acp-fs edit the buffer");
      assert.equal(turn.stopReason, "end_turn");
      const fsRequest = requestsOf(server.requests, "contract-acp-fs")[0];
      assert.equal(fsRequest.body.model, "env-model");
      assert.match(seen, /unsaved buffer/, "ReadFile read the editor's buffer");
      assert.equal(buffers.get(file), "saved buffer\n");
      assert.deepEqual(client.writes.map((w) => w.path), [file]);
      assert.equal(
        await Deno.readTextFile(file),
        "on disk\n",
        "disk untouched",
      );
      assert.deepEqual(kindsOf(fs), ["read", "edit", "think"]);
      const diff = client.updates.flatMap(({ update: u }) =>
        u.sessionUpdate === "tool_call_update" ||
          u.sessionUpdate === "tool_call"
          ? (u.content ?? []).filter((c) => c.type === "diff")
          : []
      ).at(-1);
      assert.ok(diff && diff.type === "diff", "the edit carries a diff");
      assert.equal(diff.path, file);
      assert.equal(diff.oldText, "unsaved buffer\n");
      assert.equal(diff.newText, "saved buffer\n");
      const [plan] = client.updatesOf("plan");
      assert.ok(plan, "a plan update");
      assert.deepEqual(plan.entries.map((e) => e.content), ["Edit buffer"]);

      const withMcp = await editor.newSession(cwd, [{
        name: "fello-search",
        command: Deno.execPath(),
        args: ["run", "-A", MOD, "mcp"],
        env: [],
      }]);
      const mcpTurn = await editor.prompt(
        withMcp,
        "contract-acp-mcp outline it",
      );
      assert.equal(mcpTurn.stopReason, "end_turn");
      assert.ok(mcpTool, "the MCP server's tools are offered to the model");
      assert.match(seen, /outlinedFn/);
    } finally {
      editor.connection.close();
    }
  });
});
