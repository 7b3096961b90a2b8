// Black-box contract tests of issue #6 (the Search MCP server and the ACP
// agent), written from the text: the official MCP client and the
// official ACP client side drive `deno run -A mod.ts mcp|acp` over stdio.
import { withWorkspace } from "./support/workspace.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { connectMcp } from "./support/mcp_client.ts";
import * as acp from "@agentclientprotocol/sdk";
import {
  contentText,
  type RecordedRequest,
  startScriptedServer,
  toolMessages,
} from "./support/scripted_server.ts";

const MOD = new URL("../mod.ts", import.meta.url).pathname;

function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = Deno.env.toObject();
  for (const key of Object.keys(env)) {
    if (/^(FELLO|OPENAI)_/.test(key)) delete env[key];
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

interface ToolAnswer {
  isError: boolean;
  text: string;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return {
    isError: result.isError === true,
    text: content.map((c) => c.text ?? "").join("\n"),
  };
}

/** The `path:line: text` lines of a search answer. */
function matchLines(text: string): string[] {
  return text.split("\n").filter((line) => /^[^\s:]+:\d+: /.test(line));
}

async function writeFiles(
  cwd: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(cwd, path);
    await Deno.mkdir(join(full, ".."), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(full, content);
    else await Deno.writeFile(full, content);
  }
}

Deno.test("mcp: the official client lists file_outline, search and rg; search follows the issue", async () => {
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
    const client = await connectMcp({ cwd, env: childEnv(), stderr: "ignore" });
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of ["file_outline", "search", "rg"]) {
        assert.ok(names.includes(name), `${name} missing from ${names}`);
      }

      // Literal and case-sensitive by default; skips ignored places.
      const plain = await call(client, "search", { pattern: "needle" });
      assert.ok(!plain.isError, plain.text);
      const lines = matchLines(plain.text);
      assert.ok(lines.includes("src/a.ts:2: const needle = 1;"), plain.text);
      assert.ok(lines.includes("docs/readme.md:1: a needle in the docs"));
      assert.ok(!plain.text.includes("Needle = 2"), "case-sensitive");
      for (const skipped of ["ignored", "node_modules", "in git", "bin.dat"]) {
        assert.ok(!plain.text.includes(skipped), `${skipped}: ${plain.text}`);
      }

      const anyCase = await call(client, "search", {
        pattern: "NEEDLE",
        caseSensitive: false,
        path: "src",
      });
      assert.equal(matchLines(anyCase.text).length, 3, anyCase.text);

      const literal = await call(client, "search", { pattern: "a.c" });
      assert.deepEqual(matchLines(literal.text), [
        "src/a.ts:4: const dots = 'a.c';",
      ]);
      const regex = await call(client, "search", {
        pattern: "needle\\d",
        regex: true,
      });
      assert.deepEqual(matchLines(regex.text), [
        "src/a.ts:6: const n7 = 'needle7';",
      ]);

      const globbed = await call(client, "search", {
        pattern: "needle",
        glob: "*.md",
      });
      assert.deepEqual(matchLines(globbed.text), [
        "docs/readme.md:1: a needle in the docs",
      ]);

      const capped = await call(client, "search", {
        pattern: "hit",
        maxResults: 5,
      });
      assert.equal(matchLines(capped.text).length, 5, capped.text);
      const note = capped.text.split("\n").filter((l) =>
        l.trim() !== "" && !/^[^\s:]+:\d+: /.test(l)
      );
      assert.ok(
        note.length > 0,
        `no note that results were cut: ${capped.text}`,
      );
      const uncapped = await call(client, "search", { pattern: "hit 29" });
      assert.deepEqual(matchLines(uncapped.text), ["many.txt:30: hit 29"]);

      // Errors are results, and the server keeps serving.
      const badRegex = await call(client, "search", {
        pattern: "(",
        regex: true,
      });
      assert.ok(badRegex.isError, badRegex.text);
      const badInput = await call(client, "search", { pattern: 42 });
      assert.ok(badInput.isError, badInput.text);
      const missing = await call(client, "file_outline", { path: "nope.ts" });
      assert.ok(missing.isError, missing.text);
      assert.match(missing.text, /nope\.ts/);
      const outline = await call(client, "file_outline", { path: "src/a.ts" });
      assert.ok(!outline.isError, outline.text);
      assert.match(outline.text, /needle/);

      if (await onPath("rg")) {
        const rg = await call(client, "rg", { args: ["-n", "needle7", "src"] });
        assert.ok(!rg.isError, rg.text);
        assert.match(rg.text, /needle7/);
        // Bounded output: far less than the 20,000 matching lines.
        const flood = await call(client, "rg", { args: ["zebra"] });
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

async function onPath(command: string): Promise<boolean> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (!dir) continue;
    try {
      await Deno.stat(join(dir, command));
      return true;
    } catch { /* next */ }
  }
  return false;
}

Deno.test("mcp: rg without ripgrep on PATH is a clear error result", async () => {
  await withWorkspace(async (cwd) => {
    const emptyBin = join(cwd, "empty-bin");
    await Deno.mkdir(emptyBin);
    const client = await connectMcp({
      cwd,
      env: childEnv({ PATH: emptyBin }),
      stderr: "ignore",
    });
    try {
      const rg = await call(client, "rg", { args: ["x"] });
      assert.ok(rg.isError, rg.text);
      assert.match(rg.text, /rg|ripgrep/i);
      assert.match(rg.text, /install|not found|PATH/i);
      const { tools } = await client.listTools();
      assert.ok(tools.length >= 3, "still serving");
    } finally {
      await client.close();
    }
  });
});

// ---- ACP over stdio ----

interface AcpHarness {
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  answer: { optionKind: acp.PermissionOptionKind };
}

function requestsOf(
  requests: RecordedRequest[],
  match: string,
): RecordedRequest[] {
  return requests.filter((r) => r.conversation === match);
}

function updatesOf(
  harness: AcpHarness,
  sessionId: string,
  kind: string,
): acp.SessionUpdate[] {
  return harness.updates.filter((n) =>
    n.sessionId === sessionId && n.update.sessionUpdate === kind
  ).map((n) => n.update);
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function processGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
    if (stat === "" || /^\d+ \([^)]*\) Z/.test(stat)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

Deno.test("acp: initialize, session/new, prompts with tool calls, permissions and cancel over stdio", async () => {
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
        replies: [
          {
            toolCalls: [{
              name: "WriteFile",
              arguments: { path: "new.txt", content: "x" },
            }],
          },
          { text: "ok, not writing" },
        ],
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
        replies: [
          {
            toolCalls: [{
              name: "Shell",
              arguments: { command: "echo $$ > pid.txt; exec sleep 30" },
            }],
          },
          { text: "never" },
        ],
      },
    ], {});

    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        MOD,
        "acp",
        "--base-url",
        server.baseURL,
        "--model",
        "acp-model",
      ],
      cwd,
      env: childEnv({ FELLO_STATE_DIR: cwd }),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const harness: AcpHarness = {
      updates: [],
      permissions: [],
      answer: { optionKind: "allow_once" },
    };
    const app = acp.client({ name: "contract" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        harness.updates.push(params);
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        harness.permissions.push(params);
        const option = params.options.find((o) =>
          o.kind === harness.answer.optionKind
        );
        return option
          ? { outcome: { outcome: "selected", optionId: option.optionId } }
          : { outcome: { outcome: "cancelled" } };
      });
    try {
      await app.connectWith(
        acp.ndJsonStream(child.stdin, child.stdout),
        async (ctx) => {
          const init = await ctx.request(acp.methods.agent.initialize, {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: {},
          });
          assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
          assert.ok(init.agentCapabilities, "advertises its capabilities");

          // A prompt with a ReadFile: tool_call, then tool_call_update, then text.
          const read = await ctx.request(acp.methods.agent.session.new, {
            cwd,
            mcpServers: [],
          });
          const readTurn = await ctx.request(acp.methods.agent.session.prompt, {
            sessionId: read.sessionId,
            prompt: [{ type: "text", text: "contract-acp-read the notes" }],
          });
          assert.equal(readTurn.stopReason, "end_turn");
          const chunks = updatesOf(
            harness,
            read.sessionId,
            "agent_message_chunk",
          )
            .map((u) =>
              u.sessionUpdate === "agent_message_chunk" &&
                u.content.type === "text"
                ? u.content.text
                : ""
            ).join("");
          assert.equal(chunks, "The notes say acp.");
          const calls = updatesOf(harness, read.sessionId, "tool_call");
          assert.equal(calls.length, 1);
          const call = calls[0];
          assert.ok(call.sessionUpdate === "tool_call");
          assert.equal(call.kind, "read");
          const callUpdates = updatesOf(
            harness,
            read.sessionId,
            "tool_call_update",
          ).filter((u) =>
            u.sessionUpdate === "tool_call_update" &&
            u.toolCallId === call.toolCallId
          );
          assert.ok(callUpdates.length > 0, "a tool_call_update follows");
          const last = callUpdates.at(-1)!;
          assert.ok(last.sessionUpdate === "tool_call_update");
          assert.equal(last.status, "completed");
          const order = harness.updates.map((n) => n.update.sessionUpdate);
          assert.ok(
            order.indexOf("tool_call") < order.indexOf("tool_call_update"),
          );

          // A refused permission: options in order, nothing written.
          harness.answer.optionKind = "reject_once";
          const refuse = await ctx.request(acp.methods.agent.session.new, {
            cwd,
            mcpServers: [],
          });
          const refuseTurn = await ctx.request(
            acp.methods.agent.session.prompt,
            {
              sessionId: refuse.sessionId,
              prompt: [{ type: "text", text: "contract-acp-refuse write" }],
            },
          );
          assert.equal(refuseTurn.stopReason, "end_turn");
          assert.equal(harness.permissions.length, 1);
          const kinds = harness.permissions[0].options.map((o) => o.kind);
          assert.deepEqual(kinds, [
            "allow_once",
            "allow_always",
            "reject_once",
          ]);
          await assert.rejects(
            Deno.stat(join(cwd, "new.txt")),
            Deno.errors.NotFound,
          );
          const refused = updatesOf(
            harness,
            refuse.sessionId,
            "tool_call_update",
          )
            .at(-1);
          assert.ok(refused?.sessionUpdate === "tool_call_update");
          assert.equal(refused.status, "failed");
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
          const bad = await ctx.request(acp.methods.agent.session.new, {
            cwd,
            mcpServers: [],
          });
          const badTurn = await ctx.request(acp.methods.agent.session.prompt, {
            sessionId: bad.sessionId,
            prompt: [{ type: "text", text: "contract-acp-bad calls" }],
          });
          assert.equal(badTurn.stopReason, "end_turn");
          const announced = new Set<string>();
          const failed = new Set<string>();
          for (const n of harness.updates) {
            if (n.sessionId !== bad.sessionId) continue;
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
          harness.answer.optionKind = "allow_once";
          const cancel = await ctx.request(acp.methods.agent.session.new, {
            cwd,
            mcpServers: [],
          });
          const turn = ctx.request(acp.methods.agent.session.prompt, {
            sessionId: cancel.sessionId,
            prompt: [{ type: "text", text: "contract-acp-cancel sleep" }],
          });
          turn.catch(() => {});
          let pid = 0;
          await waitFor(() => {
            try {
              pid = Number(
                Deno.readTextFileSync(join(cwd, "pid.txt")).trim(),
              );
            } catch { /* not yet */ }
            return pid > 0;
          }, "the Shell command to start");
          const shellCall = updatesOf(harness, cancel.sessionId, "tool_call")
            .at(-1);
          assert.ok(shellCall?.sessionUpdate === "tool_call");
          assert.equal(shellCall.kind, "execute");
          await ctx.notify(acp.methods.agent.session.cancel, {
            sessionId: cancel.sessionId,
          });
          assert.equal((await turn).stopReason, "cancelled");
          assert.ok(await processGone(pid), `Shell process ${pid} survived`);
        },
      );
    } finally {
      try {
        child.kill();
      } catch { /* already gone */ }
      await child.status;
    }
  });
});

Deno.test("acp: client fs, edits as diffs, plan updates and an MCP server from session/new", async () => {
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
      seen = toolMessages(request).map((m) => contentText(m.content)).join(
        "\n",
      );
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
          {
            toolCalls: [{
              name: "ReadFile",
              arguments: { path: "buffer.txt" },
            }],
          },
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
          { toolCalls: [{ name: "Plan", arguments: { entries } }] },
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
    ], {});

    // The endpoint from the environment this time, as for the CLI.
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MOD, "acp"],
      cwd,
      env: childEnv({
        FELLO_BASE_URL: server.baseURL,
        FELLO_MODEL: "env-model",
        FELLO_STATE_DIR: cwd,
      }),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const updates: acp.SessionNotification[] = [];
    const buffers = new Map([[file, "unsaved buffer\n"]]);
    const writes: string[] = [];
    const app = acp.client({ name: "contract-fs" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        updates.push(params);
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        const option = params.options.find((o) => o.kind === "allow_once")!;
        return { outcome: { outcome: "selected", optionId: option.optionId } };
      })
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        const content = buffers.get(params.path);
        if (content === undefined) {
          throw acp.RequestError.resourceNotFound(params.path);
        }
        return { content };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        buffers.set(params.path, params.content);
        writes.push(params.path);
        return {};
      });
    const kindsOf = (sessionId: string) =>
      updates.flatMap((n) =>
        n.sessionId === sessionId && n.update.sessionUpdate === "tool_call"
          ? [n.update.kind]
          : []
      );
    try {
      await app.connectWith(
        acp.ndJsonStream(child.stdin, child.stdout),
        async (ctx) => {
          await ctx.request(acp.methods.agent.initialize, {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: {
              fs: { readTextFile: true, writeTextFile: true },
            },
          });
          const fs = await ctx.request(acp.methods.agent.session.new, {
            cwd,
            mcpServers: [],
          });
          const turn = await ctx.request(acp.methods.agent.session.prompt, {
            sessionId: fs.sessionId,
            prompt: [{ type: "text", text: "contract-acp-fs edit the buffer" }],
          });
          assert.equal(turn.stopReason, "end_turn");
          const fsRequest = requestsOf(server.requests, "contract-acp-fs")[0];
          assert.equal(fsRequest.body.model, "env-model");
          assert.match(
            seen,
            /unsaved buffer/,
            "ReadFile read the editor's buffer",
          );
          assert.equal(buffers.get(file), "saved buffer\n");
          assert.deepEqual(writes, [file]);
          assert.equal(
            await Deno.readTextFile(file),
            "on disk\n",
            "disk untouched",
          );
          assert.deepEqual(kindsOf(fs.sessionId), ["read", "edit", "think"]);
          const diff = updates.flatMap((n) =>
            n.update.sessionUpdate === "tool_call_update" ||
              n.update.sessionUpdate === "tool_call"
              ? (n.update.content ?? []).filter((c) => c.type === "diff")
              : []
          ).at(-1);
          assert.ok(diff && diff.type === "diff", "the edit carries a diff");
          assert.equal(diff.path, file);
          assert.equal(diff.oldText, "unsaved buffer\n");
          assert.equal(diff.newText, "saved buffer\n");
          const plan = updates.find((n) => n.update.sessionUpdate === "plan");
          assert.ok(
            plan && plan.update.sessionUpdate === "plan",
            "a plan update",
          );
          assert.deepEqual(plan.update.entries.map((e) => e.content), [
            "Edit buffer",
          ]);

          const withMcp = await ctx.request(acp.methods.agent.session.new, {
            cwd,
            mcpServers: [{
              name: "fello-search",
              command: Deno.execPath(),
              args: ["run", "-A", MOD, "mcp"],
              env: [],
            }],
          });
          const mcpTurn = await ctx.request(acp.methods.agent.session.prompt, {
            sessionId: withMcp.sessionId,
            prompt: [{ type: "text", text: "contract-acp-mcp outline it" }],
          });
          assert.equal(mcpTurn.stopReason, "end_turn");
          assert.ok(mcpTool, "the MCP server's tools are offered to the model");
          assert.match(seen, /outlinedFn/);
        },
      );
    } finally {
      try {
        child.kill();
      } catch { /* already gone */ }
      await child.status;
    }
  });
});
