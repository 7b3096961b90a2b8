// createAgent() and `fello run` as their specification states them, black-box:
// the public API of mod.ts and the CLI as a subprocess, with the scripted
// OpenAI-compatible server as the model.
import assert from "node:assert/strict";
import { join } from "node:path";
import { type AgentEvent, createAgent, EndpointError } from "../mod.ts";
import {
  callsTool,
  contentText,
  type RecordedRequest,
  startScriptedServer,
  toolMessages,
  unusedBaseURL,
} from "./support/scripted_server.ts";
import { endpointArgs, fello } from "./support/fello_cli.ts";
import { HAS_SCRIPT, onTerminal } from "./support/terminal.ts";
import { scriptedAgent } from "./support/scripted_agent.ts";
import { withWorkspace } from "./support/workspace.ts";

const ALL_TOOLS = [
  "ReadFile",
  "WriteFile",
  "EditFile",
  "EditSymbol",
  "Shell",
  "Plan",
  "file_outline",
  "Subagent",
  "ImageAnalysis",
  "search",
];
// A 1x1 PNG.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

function requestsOf(
  requests: RecordedRequest[],
  match: string,
): RecordedRequest[] {
  return requests.filter((r) => r.conversation === match);
}

function allText(request: RecordedRequest): string {
  return request.body.messages.map((m) => contentText(m.content)).join("\n");
}

Deno.test("createAgent() run: a tool call, its result and a final answer; every tool offered", async () => {
  await withWorkspace(async (cwd) => {
    await Deno.writeTextFile(join(cwd, "a.txt"), "alpha-content-42\n");
    await using server = startScriptedServer([{
      match: "contract-read",
      replies: [
        callsTool("ReadFile", { path: "a.txt" }),
        {
          compute: (request) => ({
            text: toolMessages(request).map((m) => contentText(m.content))
                .join("").includes("alpha-content-42")
              ? "The file says alpha."
              : "no tool result",
          }),
        },
      ],
    }]);
    const agent = createAgent({
      baseURL: server.baseURL,
      apiKey: "sk-contract",
      model: "contract-model",
      cwd,
      permissionMode: "ask",
      approve: () => false,
      instructions: "CONTRACT-INSTRUCTIONS-XYZ",
      maxSteps: 10,
    });
    const result = await agent.run("contract-read: what is in a.txt?");
    assert.equal(result.text, "The file says alpha.");
    const requests = requestsOf(server.requests, "contract-read");
    assert.equal(requests.length, 2);
    const first = requests[0];
    assert.equal(first.body.model, "contract-model");
    assert.equal(first.headers.get("authorization"), "Bearer sk-contract");
    const names = (first.body.tools ?? []).map((t) => t.function.name);
    for (const name of ALL_TOOLS) {
      assert.ok(names.includes(name), `${name} missing from ${names}`);
    }
    // Descriptions teach good use: outline first, exact oldText, Subagent.
    const described = (name: string) =>
      first.body.tools?.find((t) => t.function.name === name)?.function
        .description ?? "";
    assert.match(described("ReadFile"), /file_outline/);
    assert.match(described("EditFile"), /oldText/);
    assert.match(described("EditSymbol"), /Prefer it over EditFile/);
    assert.match(described("Subagent"), /parallel|at once|concurren/i);
    const system = first.body.messages.find((m) => m.role === "system");
    assert.ok(system, "a system prompt is sent");
    assert.match(contentText(system.content), /CONTRACT-INSTRUCTIONS-XYZ/);
  });
});

Deno.test("createAgent() stream yields text deltas, tool calls, tool results and plan updates", async () => {
  await withWorkspace(async (cwd) => {
    const entries = [
      { content: "Read the code", priority: "high", status: "in_progress" },
      { content: "Fix it", priority: "medium", status: "pending" },
    ];
    await using server = startScriptedServer([{
      match: "contract-stream",
      replies: [
        callsTool("Plan", { entries }),
        { text: "Planned and done." },
      ],
    }]);
    const agent = scriptedAgent(server, cwd, {
      permissionMode: "readOnly",
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream("contract-stream please")) {
      events.push(event);
    }
    const types = events.map((e) => e.type);
    const call = events.find((e) => e.type === "tool-call");
    const result = events.find((e) => e.type === "tool-result");
    const plan = events.find((e) => e.type === "plan");
    assert.ok(call && call.type === "tool-call", `no tool-call in ${types}`);
    assert.equal(call.toolName, "Plan");
    assert.ok(result && result.type === "tool-result", `no result: ${types}`);
    assert.equal(result.toolCallId, call.toolCallId);
    assert.ok(plan && plan.type === "plan", `no plan event in ${types}`);
    assert.deepEqual(plan.entries.map((e) => e.content), [
      "Read the code",
      "Fix it",
    ]);
    const text = events.flatMap((e) => e.type === "text-delta" ? [e.text] : [])
      .join("");
    assert.equal(text, "Planned and done.");
    assert.ok(types.indexOf("tool-call") < types.indexOf("tool-result"));
    assert.equal(types.at(-1), "finish");
    assert.deepEqual(agent.plan.map((e) => e.status), [
      "in_progress",
      "pending",
    ]);
  });
});

Deno.test("createAgent() a second run continues the conversation; reset() starts over", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([
      {
        match: "contract-continue",
        replies: [{ text: "first-answer-777" }, { text: "second answer" }],
      },
      { match: "contract-fresh", replies: [{ text: "fresh answer" }] },
    ]);
    const agent = scriptedAgent(server, cwd);
    assert.equal(
      (await agent.run("contract-continue one")).text,
      "first-answer-777",
    );
    assert.equal((await agent.run("and-the-follow-up")).text, "second answer");
    const second = requestsOf(server.requests, "contract-continue")[1];
    assert.ok(second, "the second run reaches the same conversation");
    const roles = second.body.messages.filter((m) => m.role !== "system")
      .map((m) => m.role);
    assert.deepEqual(roles, ["user", "assistant", "user"]);
    assert.match(allText(second), /contract-continue one/);
    assert.match(allText(second), /first-answer-777/);
    assert.match(allText(second), /and-the-follow-up/);

    agent.reset();
    assert.equal(
      (await agent.run("contract-fresh start")).text,
      "fresh answer",
    );
    const fresh = requestsOf(server.requests, "contract-fresh")[0];
    assert.doesNotMatch(allText(fresh), /first-answer-777|contract-continue/);
  });
});

Deno.test("createAgent() tool error, refused permission, invalid input and unknown tool go back to the model", async () => {
  await withWorkspace(async (cwd) => {
    let seen: string[] = [];
    await using server = startScriptedServer([{
      match: "contract-errors",
      replies: [
        {
          toolCalls: [
            { id: "c1", name: "ReadFile", arguments: { path: "missing.txt" } },
            {
              id: "c2",
              name: "WriteFile",
              arguments: { path: "w.txt", content: "x" },
            },
            { id: "c3", name: "ReadFile", arguments: { line: "nope" } },
            { id: "c4", name: "NoSuchTool", arguments: { a: 1 } },
          ],
        },
        {
          compute: (request) => {
            seen = toolMessages(request).map((m) =>
              `${m.tool_call_id}=${contentText(m.content)}`
            );
            return { text: "recovered" };
          },
        },
      ],
    }]);
    const asked: string[] = [];
    const agent = scriptedAgent(server, cwd, {
      permissionMode: "ask",
      approve: (request) => {
        asked.push(request.tool);
        return false;
      },
    });
    const result = await agent.run("contract-errors go");
    assert.equal(result.text, "recovered");
    assert.deepEqual(asked, ["WriteFile"]);
    assert.equal(seen.length, 4, `tool messages: ${seen.join(" | ")}`);
    const byId = new Map(seen.map((s) => [s.slice(0, 2), s.slice(3)]));
    assert.match(byId.get("c1") ?? "", /missing\.txt/);
    assert.match(byId.get("c2") ?? "", /w\.txt/);
    assert.match(
      byId.get("c2") ?? "",
      /denied|refused|not allowed|permission/i,
    );
    assert.ok((byId.get("c3") ?? "").length > 0);
    assert.match(byId.get("c4") ?? "", /NoSuchTool/);
    assert.equal(result.toolCalls.length, 4);
    assert.ok(result.toolCalls.every((c) => c.isError), "all four are errors");
    await assert.rejects(Deno.stat(join(cwd, "w.txt")), Deno.errors.NotFound);
  });
});

Deno.test("createAgent() approve allows a write in ask mode", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([{
      match: "contract-approve",
      replies: [
        callsTool("WriteFile", { path: "out.txt", content: "written\n" }),
        { text: "wrote it" },
      ],
    }]);
    const agent = scriptedAgent(server, cwd, {
      permissionMode: "ask",
      approve: (request) => request.tool === "WriteFile",
    });
    assert.equal((await agent.run("contract-approve now")).text, "wrote it");
    assert.equal(await Deno.readTextFile(join(cwd, "out.txt")), "written\n");
  });
});

Deno.test("createAgent() EditFile and Shell run through the loop", async () => {
  await withWorkspace(async (cwd) => {
    await Deno.writeTextFile(join(cwd, "e.txt"), "one\ntwo\n");
    let toolText = "";
    await using server = startScriptedServer([{
      match: "contract-edit-shell",
      replies: [
        callsTool("EditFile", {
          path: "e.txt",
          oldText: "two",
          newText: "deux",
        }),
        callsTool("Shell", { command: "cat e.txt" }),
        {
          compute: (request) => {
            toolText = toolMessages(request).map((m) => contentText(m.content))
              .join("\n");
            return { text: "edited" };
          },
        },
      ],
    }]);
    const agent = scriptedAgent(server, cwd, {
      permissionMode: "allow",
    });
    const result = await agent.run("contract-edit-shell go");
    assert.equal(result.text, "edited");
    assert.equal(await Deno.readTextFile(join(cwd, "e.txt")), "one\ndeux\n");
    assert.match(toolText, /one\s+deux/);
    assert.deepEqual(result.toolCalls.map((c) => [c.toolName, c.isError]), [
      ["EditFile", false],
      ["Shell", false],
    ]);
  });
});

Deno.test("createAgent() search and file_outline run through the loop", async () => {
  await withWorkspace(async (cwd) => {
    await Deno.writeTextFile(
      join(cwd, "lib.ts"),
      "export function findMe(): number {\n  return 1;\n}\n",
    );
    let toolText = "";
    await using server = startScriptedServer([{
      match: "contract-search",
      replies: [
        {
          toolCalls: [
            { name: "search", arguments: { pattern: "findMe" } },
            { name: "file_outline", arguments: { path: "lib.ts" } },
          ],
        },
        {
          compute: (request) => {
            toolText = toolMessages(request).map((m) => contentText(m.content))
              .join("\n");
            return { text: "found" };
          },
        },
      ],
    }]);
    const agent = scriptedAgent(server, cwd);
    const result = await agent.run("contract-search findMe");
    assert.equal(result.text, "found");
    assert.match(toolText, /lib\.ts:1: export function findMe/);
    assert.match(toolText, /function findMe/);
    assert.ok(result.toolCalls.every((c) => !c.isError), toolText);
  });
});

Deno.test("createAgent() ImageAnalysis sends a data-URL image to the vision model", async () => {
  await withWorkspace(async (cwd) => {
    // The extension lies: detection goes by the bytes.
    await Deno.writeFile(join(cwd, "pic.bin"), PNG);
    let answer = "";
    await using server = startScriptedServer([
      {
        match: "contract-image",
        replies: [
          callsTool("ImageAnalysis", {
            path: "pic.bin",
            prompt: "contract-vision-q",
          }),
          {
            compute: (request) => {
              answer = toolMessages(request).map((m) => contentText(m.content))
                .join("\n");
              return { text: "seen" };
            },
          },
        ],
      },
      { match: "contract-vision-q", replies: [{ text: "a single red pixel" }] },
    ]);
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "main-model",
      visionModel: "vision-model",
      cwd,
    });
    assert.equal((await agent.run("contract-image look")).text, "seen");
    const vision = requestsOf(server.requests, "contract-vision-q")[0];
    assert.ok(vision, "the vision model was asked");
    assert.equal(vision.body.model, "vision-model");
    const parts = vision.body.messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content : []
    );
    const image = parts.find((p) => p?.type === "image_url");
    assert.ok(image, `no image_url part in ${JSON.stringify(vision.body)}`);
    const dataURL = image.image_url.url as string;
    assert.ok(dataURL.startsWith("data:image/png;base64,"), dataURL);
    // Sent as it is: the same bytes.
    assert.deepEqual(
      Uint8Array.from(atob(dataURL.split(",")[1]), (c) => c.charCodeAt(0)),
      PNG,
    );
    assert.match(JSON.stringify(vision.body), /contract-vision-q/);
    assert.match(answer, /a single red pixel/);
  });
});

Deno.test("createAgent() retries a 500 and then succeeds", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([{
      match: "contract-retry",
      replies: [{ failures: [{ status: 500 }], text: "after retry" }],
    }]);
    const agent = scriptedAgent(server, cwd);
    assert.equal((await agent.run("contract-retry")).text, "after retry");
    assert.equal(requestsOf(server.requests, "contract-retry").length, 2);
  });
});

Deno.test("createAgent() a 5xx that persists fails naming the URL and the status after bounded retries", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([{
      match: "contract-503",
      replies: [{
        failures: Array.from({ length: 10 }, () => ({ status: 503 })),
        text: "never",
      }],
    }]);
    const agent = scriptedAgent(server, cwd, {
      maxRetries: 1,
    });
    await assert.rejects(agent.run("contract-503"), (error: Error) => {
      assert.ok(
        error.message.includes(new URL(server.baseURL).host),
        error.message,
      );
      assert.match(error.message, /503/);
      return true;
    });
    // One retry, and the SDK adds none of its own.
    assert.equal(requestsOf(server.requests, "contract-503").length, 2);
  });
});

Deno.test("createAgent() an endpoint that is down fails with an error naming the URL", async () => {
  await withWorkspace(async (cwd) => {
    const baseURL = unusedBaseURL();
    const agent = createAgent({ baseURL, model: "m", cwd, maxRetries: 1 });
    const { host } = new URL(baseURL);
    await assert.rejects(agent.run("hello"), (error: Error) => {
      assert.ok(error.message.includes(host), error.message);
      return true;
    });
  });
});

Deno.test("createAgent() abort kills a running Shell", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([{
      match: "contract-abort",
      replies: [
        callsTool("Shell", { command: "echo $$ > pid.txt; exec sleep 30" }),
        { text: "should not get here" },
      ],
    }]);
    const agent = scriptedAgent(server, cwd, {
      permissionMode: "allow",
    });
    const controller = new AbortController();
    const run = agent.run("contract-abort", { signal: controller.signal });
    run.catch(() => {});
    const pidFile = join(cwd, "pid.txt");
    let pid = 0;
    for (let i = 0; i < 300 && !pid; i++) {
      await new Promise((r) => setTimeout(r, 50));
      pid = Number((await Deno.readTextFile(pidFile).catch(() => "")).trim());
    }
    assert.ok(pid > 0, "the Shell command started");
    controller.abort();
    await assert.rejects(run);
    let alive = true;
    for (let i = 0; i < 100 && alive; i++) {
      const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
      alive = stat !== "" && !/^\d+ \([^)]*\) Z/.test(stat);
      if (alive) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(!alive, `process ${pid} still runs after the abort`);
  });
});

Deno.test("createAgent() abort stops a model request that never answers", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([{
      match: "contract-hang",
      replies: [{ hang: true }],
    }]);
    const agent = scriptedAgent(server, cwd);
    const controller = new AbortController();
    const run = agent.run("contract-hang", { signal: controller.signal });
    run.catch(() => {});
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    await assert.rejects(run);
  });
});

Deno.test("createAgent() works with a server that answers plain JSON to streamed requests", async () => {
  await withWorkspace(async (cwd) => {
    await Deno.writeTextFile(join(cwd, "j.txt"), "json-file\n");
    await using server = startScriptedServer([{
      match: "contract-json",
      replies: [
        callsTool("ReadFile", { path: "j.txt" }),
        {
          compute: (request) => ({
            text: toolMessages(request).map((m) => contentText(m.content))
                .join("").includes("json-file")
              ? "json ok"
              : "no result",
          }),
        },
      ],
    }], { ignoreStream: true });
    const agent = scriptedAgent(server, cwd);
    assert.equal((await agent.run("contract-json go")).text, "json ok");
  });
});

Deno.test("createAgent() Subagent runs three tasks at once and reports each", async () => {
  await withWorkspace(async (cwd) => {
    const delayMs = 1500;
    let report = "";
    const child = (name: string) => ({
      match: `contract-child-${name}`,
      replies: [{ delayMs, text: `child ${name} finished` }],
    });
    await using server = startScriptedServer([
      {
        match: "contract-parent",
        replies: [
          {
            toolCalls: [{
              name: "Subagent",
              arguments: {
                tasks: ["A", "B", "C"].map((name) => ({
                  description: `task ${name}`,
                  prompt: `contract-child-${name}: do it`,
                })),
              },
            }],
          },
          {
            compute: (request) => {
              report = toolMessages(request).map((m) => contentText(m.content))
                .join("\n");
              return { text: "all done" };
            },
          },
        ],
      },
      child("A"),
      child("B"),
      child("C"),
    ]);
    const agent = scriptedAgent(server, cwd);
    assert.equal((await agent.run("contract-parent go")).text, "all done");
    for (const name of ["A", "B", "C"]) {
      assert.match(report, new RegExp(`child ${name} finished`));
    }
    const starts = ["A", "B", "C"].map((name) => {
      const request = requestsOf(server.requests, `contract-child-${name}`)[0];
      assert.ok(request, `child ${name} asked the model`);
      const names = (request.body.tools ?? []).map((t) => t.function.name);
      assert.ok(!names.includes("Subagent"), "children cannot nest");
      return request.at;
    });
    // Concurrent: every child asked before the first one could be answered.
    assert.ok(
      Math.max(...starts) - Math.min(...starts) < delayMs,
      `children started ${starts.map((s) => s - starts[0])} ms apart`,
    );
  });
});

// ---- CLI (subprocess) ----

Deno.test('CLI run "prompt" with --base-url and --model streams the answer and shows tool calls', async () => {
  await withWorkspace(async (cwd) => {
    await Deno.writeTextFile(join(cwd, "shown.txt"), "x\n");
    await using server = startScriptedServer([{
      match: "contract-cli-run",
      replies: [
        callsTool("ReadFile", { path: "shown.txt" }),
        { text: "cli answer 123" },
      ],
    }]);
    const out = await fello(
      [
        "run",
        ...endpointArgs(server.baseURL, "cli-model"),
        "contract-cli-run hi",
      ],
      { cwd },
    );
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /cli answer 123/);
    // Each tool call with its main argument.
    assert.match(out.stdout + out.stderr, /ReadFile.*shown\.txt/);
    assert.equal(
      requestsOf(server.requests, "contract-cli-run")[0].body.model,
      "cli-model",
    );
  });
});

Deno.test('CLI bare "prompt" takes FELLO_BASE_URL and FELLO_MODEL; --json prints one event per line', async () => {
  await withWorkspace(async (cwd) => {
    await Deno.writeTextFile(join(cwd, "a.txt"), "hello\n");
    await using server = startScriptedServer([{
      match: "contract-cli-env",
      replies: [
        callsTool("ReadFile", { path: "a.txt" }),
        { text: "json answer" },
      ],
    }]);
    const out = await fello(["--json", "contract-cli-env hi"], {
      cwd,
      env: { FELLO_BASE_URL: server.baseURL, FELLO_MODEL: "env-model" },
    });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(
      requestsOf(server.requests, "contract-cli-env")[0].body.model,
      "env-model",
    );
    const lines = out.stdout.split("\n").filter((l) => l.trim() !== "");
    const events = lines.map((line) => JSON.parse(line));
    const types = events.map((e) => e.type);
    assert.ok(types.includes("tool-call"), `types: ${types}`);
    assert.ok(types.includes("tool-result"), `types: ${types}`);
    const text = events.filter((e) => e.type === "text-delta").map((e) =>
      e.text
    )
      .join("");
    assert.equal(text, "json answer");
  });
});

Deno.test("CLI falls back to OPENAI_BASE_URL", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([{
      match: "contract-cli-openai",
      replies: [{ text: "openai env answer" }],
    }]);
    const out = await fello(["contract-cli-openai hi"], {
      cwd,
      env: { OPENAI_BASE_URL: server.baseURL, FELLO_MODEL: "m" },
    });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /openai env answer/);
  });
});

Deno.test("CLI an unreachable endpoint exits 2 with one line naming the URL; the default is a local Ollama", async () => {
  await withWorkspace(async (cwd) => {
    const baseURL = unusedBaseURL();
    // Nothing configured: the default endpoint, unless an Ollama really runs.
    const ollamaRuns = await Deno.connect({
      hostname: "127.0.0.1",
      port: 11434,
    })
      .then((conn) => (conn.close(), true), () => false);
    const [flagged, unset] = await Promise.all([
      fello(["run", "--base-url", baseURL, "--model", "m", "hi"], { cwd }),
      ollamaRuns ? undefined : fello(["hi"], { cwd }),
    ]);
    for (
      const [out, host] of [[flagged, new URL(baseURL).host], [
        unset,
        "127.0.0.1:11434",
      ]] as const
    ) {
      if (!out) continue;
      assert.equal(out.code, 2, out.stderr);
      const lines = out.stderr.trim().split("\n");
      assert.equal(lines.length, 1, out.stderr);
      assert.ok(lines[0].includes(host), lines[0]);
      assert.match(
        lines[0],
        /--base-url|FELLO_BASE_URL/,
        "says how to configure",
      );
      assert.doesNotMatch(out.stderr, /\n\s+at /);
    }
  });
});

Deno.test({
  name:
    "CLI on a terminal without a prompt: an interactive session that asks yes / no / always and keeps the conversation",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await withWorkspace(async (cwd) => {
      const write = (
        n: number,
      ) => (callsTool("WriteFile", { path: `w${n}.txt`, content: `${n}` }));
      await using server = startScriptedServer([{
        match: "contract-tty",
        replies: [
          write(1),
          write(2),
          write(3),
          write(4),
          { text: "FIRST-DONE" },
          { text: "SECOND-DONE" },
        ],
      }]);
      // Typed lines are queued on the terminal in order: a prompt, three
      // answers, a follow-up, /exit.
      await onTerminal(cwd, server.baseURL, async (terminal) => {
        await terminal.type(
          "contract-tty go\ny\nn\nalways\nfollow-up-question\n/exit\n",
        );
        await terminal.waitFor(/FIRST-DONE[\s\S]*SECOND-DONE/);
        assert.equal(await terminal.exitCode(), 0, terminal.screen());
      });
      const files = [];
      for await (const entry of Deno.readDir(cwd)) files.push(entry.name);
      // yes, no, always (and "always" covers the fourth write unasked).
      assert.deepEqual(files.sort(), ["w1.txt", "w3.txt", "w4.txt"]);
      const last = requestsOf(server.requests, "contract-tty").at(-1)!;
      assert.match(allText(last), /FIRST-DONE[\s\S]*follow-up-question/);
    });
  },
});

Deno.test("createAgent(): EndpointError carries url, status and attempts; an aborted run rejects with the signal's reason; leaving stream() runs no tool", async () => {
  await withWorkspace(async (ws) => {
    await using server = startScriptedServer([
      {
        match: "fail please",
        replies: [{ failures: [{ status: 500 }], text: "late" }],
      },
      { match: "hang please", replies: [{ hang: true }] },
      {
        match: "mark please",
        replies: [
          callsTool("Shell", { command: "echo ran > marker.txt" }),
          { text: "marked" },
        ],
      },
    ]);
    const options = {
      baseURL: server.baseURL,
      model: "m",
      cwd: ws,
      maxRetries: 0,
    };
    const failed = await createAgent(options).run("fail please").then(
      () => undefined,
      (e) => e,
    );
    assert.ok(failed instanceof EndpointError, String(failed));
    assert.equal(failed.status, 500);
    assert.equal(failed.attempts, 1);
    assert.equal(failed.url, `${server.baseURL}/chat/completions`);
    assert.ok(failed.message.includes(failed.url), failed.message);

    const aborted = await createAgent(options)
      .run("hang please", { signal: AbortSignal.timeout(300) })
      .then(() => undefined, (e) => e);
    assert.equal((aborted as Error)?.name, "TimeoutError");

    const agent = createAgent({ ...options, permissionMode: "allow" });
    for await (const event of agent.stream("mark please")) {
      if (event.type === "tool-call") break;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    await assert.rejects(
      Deno.stat(join(ws, "marker.txt")),
      Deno.errors.NotFound,
    );
    assert.deepEqual(agent.history, []);
  });
});

Deno.test("createAgent() refuses a requestTimeoutMs of 0, -1 or NaN at creation, or runs with it", async () => {
  await using server = startScriptedServer([
    {
      match: "Hello",
      replies: [{ text: "hi" }, { text: "hi" }, { text: "hi" }],
    },
  ]);
  for (const requestTimeoutMs of [0, -1, NaN]) {
    let agent;
    try {
      agent = createAgent({
        baseURL: server.baseURL,
        model: "m",
        maxRetries: 0,
        requestTimeoutMs,
      });
    } catch (error) {
      assert.ok(error instanceof RangeError, String(error));
      assert.match(error.message, /requestTimeoutMs/);
      continue;
    }
    const result = await agent.run("Hello");
    assert.equal(result.text, "hi", `requestTimeoutMs ${requestTimeoutMs}`);
  }
});
