// The agent loop against the scripted OpenAI-compatible server (real HTTP, the
// real AI SDK client, real tools on a temporary workspace): tools, errors,
// Subagent, ImageAnalysis, history, and the streaming dialects of real servers.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type AgentEvent,
  type AgentMessage,
  type AgentPermissionRequest,
  createAgent,
  EndpointError,
} from "../mod.ts";
import { queuedFileCount } from "../tools/_file_lock.ts";
import {
  type ChatMessage,
  contentText,
  type RecordedRequest,
  type ScriptedReply,
  startScriptedServer,
  toolMessages,
  toolResultText,
  unusedBaseURL,
} from "./support/scripted_server.ts";
import {
  answerText,
  type ChatBody,
  chunk,
  dribble,
  event,
  frames,
  type RawServer,
  sse,
  startCutServer,
  startRawServer,
} from "./support/raw_endpoint.ts";
import { assertAllValid, assertRoles, logTool } from "./support/log_tool.ts";
import { isAlive, waitForPid, waitUntilGone } from "./support/processes.ts";
import { collect, scriptedAgent } from "./support/scripted_agent.ts";
import { withWorkspace } from "./support/workspace.ts";

function toolContents(request: RecordedRequest): string[] {
  return toolMessages(request).map((m) => contentText(m.content));
}

Deno.test("agent.run() makes a tool call, sends its result and returns the final answer", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    await using server = startScriptedServer([{
      match: "What does notes.txt say?",
      replies: [
        { toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }] },
        {
          compute: (request) => ({
            text: `It says: ${
              toolContents(request)[0].includes("the answer is 42") ? "42" : "?"
            }`,
          }),
        },
      ],
    }]);
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "scripted",
      cwd: dir,
    });
    const result = await agent.run("What does notes.txt say?");
    assert.equal(result.text, "It says: 42");
    assert.equal(result.steps, 2);
    assert.equal(result.finishReason, "stop");
    assert.deepEqual(result.toolCalls.map((c) => [c.toolName, c.isError]), [[
      "ReadFile",
      false,
    ]]);
    const [first, second] = server.requests;
    assert.equal(first.body.model, "scripted");
    assert.equal(first.body.stream, true);
    assert.match(contentText(first.body.messages[0].content), /file_outline/); // the system prompt
    const names = first.body.tools!.map((t) => t.function.name).sort();
    for (
      const name of [
        "EditFile",
        "ImageAnalysis",
        "Plan",
        "ReadFile",
        "Shell",
        "Subagent",
        "WriteFile",
        "file_outline",
        "search",
      ]
    ) {
      assert.ok(names.includes(name), `${name} is offered to the model`);
    }
    assert.equal(second.body.messages.at(-1)?.role, "tool");
  });
});

Deno.test("agent.stream() yields text deltas, tool events with id, kind, input and output, and finish last", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "alpha\n");
    await using server = startScriptedServer([{
      match: "stream it",
      replies: [
        {
          text: "Reading.",
          toolCalls: [{
            name: "ReadFile",
            arguments: { path: "a.txt" },
            id: "call_read",
          }],
        },
        { text: "Done reading a.txt." },
      ],
    }]);
    const agent = scriptedAgent(server, dir);
    const events = await collect(agent.stream("stream it"));
    const text = events.filter((e) => e.type === "text-delta").map((e) =>
      e.text
    ).join("");
    assert.equal(text, "Reading.Done reading a.txt.");
    const call = events.find((e) => e.type === "tool-call");
    assert.deepEqual(call, {
      type: "tool-call",
      toolCallId: "call_read",
      toolName: "ReadFile",
      kind: "read",
      input: { path: "a.txt" },
    });
    const result = events.find((e) => e.type === "tool-result");
    assert.ok(result?.type === "tool-result");
    assert.equal(result.toolCallId, "call_read");
    assert.equal((result.output as { content: string }).content, "alpha\n");
    assert.match(result.modelText, /alpha/);
    const last = events.at(-1);
    assert.ok(last?.type === "finish");
    assert.equal(last.result.text, "Done reading a.txt.");
  });
});

Deno.test("agent runs every built-in tool through the loop", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      join(dir, "lib.ts"),
      "export function greet() {\n  return 'hi';\n}\n",
    );
    const plan = [{
      content: "Change greet",
      priority: "high",
      status: "in_progress",
    }];
    await using server = startScriptedServer([{
      match: "use every tool",
      replies: [
        { toolCalls: [{ name: "Plan", arguments: { entries: plan } }] },
        {
          toolCalls: [{ name: "file_outline", arguments: { path: "lib.ts" } }],
        },
        { toolCalls: [{ name: "search", arguments: { pattern: "greet" } }] },
        { toolCalls: [{ name: "ReadFile", arguments: { path: "lib.ts" } }] },
        {
          toolCalls: [{
            name: "EditFile",
            arguments: {
              path: "lib.ts",
              oldText: "return 'hi';",
              newText: "return 'hello';",
            },
          }],
        },
        {
          toolCalls: [{
            name: "WriteFile",
            arguments: { path: "out/new.txt", content: "fresh\n" },
          }],
        },
        {
          toolCalls: [{
            name: "Shell",
            arguments: { command: "cat out/new.txt && echo shell-ok" },
          }],
        },
        { text: "All done." },
      ],
    }]);
    const plans: unknown[] = [];
    const agent = scriptedAgent(server, dir, {
      permissionMode: "allow",
      onPlan: (entries) => plans.push(entries),
    });
    const events = await collect(agent.stream("use every tool"));
    const errors = events.filter((e) => e.type === "tool-error");
    assert.deepEqual(errors, []);
    const results = events.filter((e) => e.type === "tool-result");
    assert.deepEqual(
      results.map((e) => [e.toolName, e.kind]),
      [
        ["Plan", "think"],
        ["file_outline", "read"],
        ["search", "search"],
        ["ReadFile", "read"],
        [
          "EditFile",
          "edit",
        ],
        ["WriteFile", "edit"],
        ["Shell", "execute"],
      ],
    );
    assert.deepEqual(events.find((e) => e.type === "plan"), {
      type: "plan",
      entries: plan,
    });
    assert.deepEqual(plans, [plan]);
    assert.deepEqual(agent.plan, plan);
    assert.equal(
      await Deno.readTextFile(join(dir, "lib.ts")),
      "export function greet() {\n  return 'hello';\n}\n",
    );
    assert.equal(await Deno.readTextFile(join(dir, "out/new.txt")), "fresh\n");
    // What the model saw for each call.
    const seen = server.requests.slice(1).map((r) =>
      toolContents(r).at(-1) ?? ""
    );
    assert.match(seen[1], /function greet/); // the outline
    assert.match(seen[2], /lib\.ts:1/); // the search hit
    assert.match(seen[3], /return 'hi'/); // the file before the edit
    assert.match(seen[6], /fresh\s+shell-ok/); // the Shell output
  });
});

Deno.test("agent runs two tool calls of one step and sends both results together", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "one.txt"), "first file\n");
    await Deno.writeTextFile(join(dir, "two.txt"), "second file\n");
    await using server = startScriptedServer([{
      match: "read both",
      replies: [
        {
          toolCalls: [
            { name: "ReadFile", arguments: { path: "one.txt" }, id: "c1" },
            { name: "ReadFile", arguments: { path: "two.txt" }, id: "c2" },
          ],
        },
        { text: "Both read." },
      ],
    }]);
    const agent = scriptedAgent(server, dir);
    const events = await collect(agent.stream("read both"));
    assert.deepEqual(
      events.filter((e) => e.type === "tool-call").map((e) => e.toolCallId),
      ["c1", "c2"],
    );
    assert.equal(server.requests.length, 2);
    const tools = toolMessages(server.requests[1]);
    assert.deepEqual(tools.map((m) => m.tool_call_id).sort(), ["c1", "c2"]);
    const byId = Object.fromEntries(
      tools.map((m) => [m.tool_call_id, contentText(m.content)]),
    );
    assert.match(byId.c1, /first file/);
    assert.match(byId.c2, /second file/);
  });
});

Deno.test("agent sends a refused permission to the model as an error result and goes on", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "write a file",
      replies: [
        {
          toolCalls: [{
            name: "WriteFile",
            arguments: { path: "x.txt", content: "nope" },
            id: "w1",
          }],
        },
        { text: "The user refused; I did not write it." },
      ],
    }]);
    const asked: AgentPermissionRequest[] = [];
    const log: string[] = [];
    const agent = scriptedAgent(server, dir, {
      permissionMode: "ask",
      approve: (request) => {
        asked.push(request);
        log.push(`approve ${request.toolCallId}`);
        return false;
      },
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream("write a file")) {
      events.push(event);
      if (event.type === "tool-call") {
        await new Promise((r) => setTimeout(r, 50)); // a slow consumer, e.g. a protocol write
        log.push(`shown ${event.toolCallId}`);
      }
    }
    // The caller handles the call's event before it is asked about the call.
    assert.deepEqual(log, ["shown w1", "approve w1"]);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].tool, "WriteFile");
    assert.equal(asked[0].action, "write");
    assert.equal(asked[0].toolCallId, "w1");
    const error = events.find((e) => e.type === "tool-error");
    assert.ok(error?.type === "tool-error");
    assert.equal(error.toolCallId, "w1");
    assert.match(error.error, /Refused by the user/);
    assert.match(
      contentText(toolMessages(server.requests[1])[0].content),
      /Refused by the user/,
    );
    await assert.rejects(Deno.stat(join(dir, "x.txt")), Deno.errors.NotFound);
    assert.equal(
      (events.at(-1) as { result: { text: string } }).result.text,
      "The user refused; I did not write it.",
    );
  });
});

Deno.test("agent returns unknown tools, invalid JSON and invalid input to the model as errors", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "make mistakes",
      replies: [
        {
          toolCalls: [
            { name: "NoSuchTool", arguments: {}, id: "u1" },
            { name: "ReadFile", arguments: "{not json", id: "u2" },
            { name: "ReadFile", arguments: { line: 3 }, id: "u3" },
          ],
        },
        { text: "Recovered." },
      ],
    }]);
    const agent = scriptedAgent(server, dir);
    const result = await agent.run("make mistakes");
    assert.equal(result.text, "Recovered.");
    assert.deepEqual(result.toolCalls.map((c) => c.isError), [
      true,
      true,
      true,
    ]);
    const byId = Object.fromEntries(
      toolMessages(server.requests[1]).map((
        m,
      ) => [m.tool_call_id, contentText(m.content)]),
    );
    assert.match(byId.u1, /NoSuchTool/);
    assert.match(byId.u2, /Invalid input for tool ReadFile/i);
    assert.match(byId.u3, /Invalid input for ReadFile: "path"/);
  });
});

Deno.test("agent.run() continues the conversation and agent.reset() starts over", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      {
        match: "first question",
        replies: [
          { toolCalls: [{ name: "Plan", arguments: { entries: [] } }] },
          { toolCalls: [{ name: "Plan", arguments: { entries: [] } }] },
          { text: "first answer" },
          { text: "second answer" },
        ],
      },
      { match: "fresh start", replies: [{ text: "fresh answer" }] },
    ]);
    const agent = scriptedAgent(server, dir, {
      instructions: "Speak like a pirate.",
    });
    assert.equal((await agent.run("first question")).text, "first answer");
    assert.equal((await agent.run("follow-up")).text, "second answer");
    // Every step of the first run is kept: two tool rounds, then the answer.
    const followUp = server.requests[3].body.messages;
    assert.deepEqual(followUp.map((m) => m.role), [
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    assert.equal(contentText(followUp[6].content), "first answer");
    assert.equal(contentText(followUp[7].content), "follow-up");
    assert.match(contentText(followUp[0].content), /Speak like a pirate\./);
    agent.reset();
    assert.equal((await agent.run("fresh start")).text, "fresh answer");
    assert.deepEqual(server.requests[4].body.messages.map((m) => m.role), [
      "system",
      "user",
    ]);
  });
});

Deno.test("Subagent runs three delayed children at once and reports each", async () => {
  await withWorkspace(async (dir) => {
    const delayMs = 2000;
    const tasks = ["alpha", "beta", "gamma"].map((name) => ({
      description: `Look at ${name}`,
      prompt: `child task ${name}: report`,
    }));
    await using server = startScriptedServer([
      {
        match: "delegate three",
        replies: [
          {
            toolCalls: [{ name: "Subagent", arguments: { tasks }, id: "sub" }],
          },
          { compute: (r) => ({ text: toolContents(r)[0] }) },
        ],
      },
      ...["alpha", "beta", "gamma"].map((name) => ({
        match: `child task ${name}`,
        replies: [{ text: `${name} report`, delayMs }],
      })),
    ]);
    const asked: AgentPermissionRequest[] = [];
    const agent = scriptedAgent(server, dir, {
      approve: (r) => (asked.push(r), true),
    });
    const result = await agent.run("delegate three");
    assert.match(result.text, /3 tasks: 3 completed/);
    for (const name of ["alpha", "beta", "gamma"]) {
      assert.match(
        result.text,
        new RegExp(`Look at ${name} \\(completed\\)\\n${name} report`),
      );
    }
    const children = server.requests.filter((r) =>
      r.conversation?.startsWith("child task")
    );
    assert.equal(children.length, 3);
    // Concurrent: every child asked before the first could be answered
    // (sequential children arrive at least delayMs apart). Not the total
    // time: the rounds around the children add load-dependent seconds.
    const starts = children.map((child) => child.at);
    assert.ok(
      Math.max(...starts) - Math.min(...starts) < delayMs,
      `children started ${
        starts.map((s) => Math.round(s - starts[0]))
      } ms apart`,
    );
    for (const child of children) {
      const names = child.body.tools!.map((t) => t.function.name);
      assert.ok(!names.includes("Subagent"), "children cannot nest subagents");
      assert.ok(names.includes("ReadFile"));
      assert.match(contentText(child.body.messages[0].content), /helper agent/);
    }
  });
});

Deno.test("Subagent reports a failing child without failing the others", async () => {
  await withWorkspace(async (dir) => {
    const tasks = [
      { description: "Works", prompt: "child ok: go" },
      { description: "Breaks", prompt: "child broken: go" },
    ];
    await using server = startScriptedServer([
      {
        match: "delegate two",
        replies: [
          {
            toolCalls: [{ name: "Subagent", arguments: { tasks }, id: "sub2" }],
          },
          { compute: (r) => ({ text: toolContents(r)[0] }) },
        ],
      },
      {
        match: "child ok",
        replies: [
          {
            toolCalls: [{
              name: "WriteFile",
              arguments: { path: "child.txt", content: "from child\n" },
            }],
          },
          { text: "ok report" },
        ],
      },
      {
        match: "child broken",
        replies: [{
          text: "never",
          failures: [{
            status: 400,
            body: '{"error":{"message":"bad child request"}}',
          }],
        }],
      },
    ]);
    const asked: AgentPermissionRequest[] = [];
    const agent = scriptedAgent(server, dir, {
      approve: (request) => (asked.push(request), true),
    });
    const events = await collect(agent.stream("delegate two"));
    const result = (events.at(-1) as { result: { text: string } }).result;
    // The child's tool calls show up as subagent events of the Subagent call.
    const childEvents = events.filter((e) => e.type === "subagent");
    assert.deepEqual(
      childEvents.map((
        e,
      ) => [
        e.toolCallId,
        e.task,
        e.description,
        e.event.type,
        e.event.toolName,
      ]),
      [["sub2", 0, "Works", "tool-call", "WriteFile"], [
        "sub2",
        0,
        "Works",
        "tool-result",
        "WriteFile",
      ]],
    );
    assert.match(result.text, /2 tasks: 1 completed, 1 failed/);
    assert.match(result.text, /Works \(completed\)\nok report/);
    assert.match(
      result.text,
      /Breaks \(failed\)\nError: .*400.*bad child request/,
    );
    assert.equal(
      await Deno.readTextFile(join(dir, "child.txt")),
      "from child\n",
    );
    // The child's permission request names its own call, under the Subagent
    // call and the task: `<Subagent call>/<task>/<child's call>`.
    assert.deepEqual(asked.map((r) => r.tool), ["WriteFile"]);
    assert.match(asked[0].toolCallId ?? "", /^sub2\/\d\/.+/);
  });
});

Deno.test("aborting a run cancels its subagents and their model requests", async () => {
  await withWorkspace(async (dir) => {
    const tasks = [1, 2].map((n) => ({
      description: `wait ${n}`,
      prompt: `child waits ${n}`,
    }));
    await using server = startScriptedServer([
      {
        match: "delegate and wait",
        replies: [{ toolCalls: [{ name: "Subagent", arguments: { tasks } }] }],
      },
      { match: "child waits", replies: [{ hang: true }] },
    ]);
    const agent = scriptedAgent(server, dir);
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const run = (async () => {
      for await (
        const event of agent.stream("delegate and wait", {
          signal: controller.signal,
        })
      ) {
        events.push(event);
      }
    })();
    while (
      server.requests.filter((r) => r.conversation === "child waits").length < 2
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const abortedAt = performance.now();
    controller.abort();
    await assert.rejects(
      run,
      (error: unknown) => (error as Error).name === "AbortError",
    );
    assert.ok(performance.now() - abortedAt < 5_000);
    assert.ok(
      events.some((e) => e.type === "tool-call" && e.toolName === "Subagent"),
    );
    assert.ok(!events.some((e) => e.type === "finish"));
  });
});

Deno.test("ImageAnalysis sends the image as a data-URL image part to the vision model", async () => {
  await withWorkspace(async (dir) => {
    const png = await makeImage(40, 30, "image/png");
    await Deno.writeFile(join(dir, "shot.bin"), png); // the extension does not matter
    await using server = startScriptedServer([
      {
        match: "look at the screenshot",
        replies: [
          {
            toolCalls: [{
              name: "ImageAnalysis",
              arguments: { path: "shot.bin", prompt: "Which colour?" },
            }],
          },
          { compute: (r) => ({ text: toolContents(r)[0] }) },
        ],
      },
      { match: "Which colour?", replies: [{ text: "It is all red." }] },
    ]);
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      visionModel: "vision-m",
      cwd: dir,
    });
    const result = await agent.run("look at the screenshot");
    assert.match(result.text, /image\/png 40x30, sent as is/);
    assert.match(result.text, /It is all red\./);
    const vision = server.requests.find((r) =>
      r.conversation === "Which colour?"
    )!;
    assert.equal(vision.body.model, "vision-m");
    const parts = vision.body.messages[0].content as {
      type: string;
      image_url?: { url: string };
    }[];
    const image = parts.find((p) => p.type === "image_url")!;
    assert.equal(
      image.image_url!.url,
      `data:image/png;base64,${encodeBase64(png)}`,
    );
  });
});

Deno.test("ImageAnalysis downscales a large image and refuses a file that is no image", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeFile(
      join(dir, "wide.png"),
      await makeImage(3000, 60, "image/png"),
    );
    await Deno.writeTextFile(
      join(dir, "fake.png"),
      "just text, not an image\n",
    );
    await using server = startScriptedServer([
      {
        match: "two images",
        replies: [
          {
            toolCalls: [
              {
                name: "ImageAnalysis",
                arguments: { path: "wide.png", prompt: "wide one" },
                id: "wide",
              },
              {
                name: "ImageAnalysis",
                arguments: { path: "fake.png" },
                id: "fake",
              },
            ],
          },
          { text: "ok" },
        ],
      },
      { match: "wide one", replies: [{ text: "a wide red strip" }] },
    ]);
    const agent = scriptedAgent(server, dir);
    const events = await collect(agent.stream("two images"));
    const wide = events.find((e) =>
      e.type === "tool-result" && e.toolCallId === "wide"
    );
    assert.ok(wide?.type === "tool-result");
    const output = wide.output as {
      resized: boolean;
      sent: { width: number; height: number; mediaType: string };
    };
    assert.equal(output.resized, true);
    assert.equal(output.sent.width, 2048);
    assert.equal(output.sent.mediaType, "image/jpeg");
    const fake = events.find((e) =>
      e.type === "tool-error" && e.toolCallId === "fake"
    );
    assert.ok(fake?.type === "tool-error");
    assert.match(
      fake.error,
      /Cannot analyze "fake\.png": it is not a PNG, JPEG, GIF or WebP image/,
    );
    const vision = server.requests.find((r) => r.conversation === "wide one")!;
    const parts = vision.body.messages[0].content as {
      type: string;
      image_url?: { url: string };
    }[];
    assert.ok(
      parts.some((p) => p.image_url?.url.startsWith("data:image/jpeg;base64,")),
    );
  });
});

Deno.test("agent retries a 500 answer and then succeeds", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "flaky",
      replies: [{ text: "made it", failures: [{ status: 500 }] }],
    }]);
    const agent = scriptedAgent(server, dir);
    const events = await collect(agent.stream("flaky"));
    const retry = events.find((e) => e.type === "retry");
    assert.ok(retry?.type === "retry");
    assert.equal(retry.status, 500);
    assert.equal(retry.attempt, 1);
    assert.equal(
      (events.at(-1) as { result: { text: string } }).result.text,
      "made it",
    );
    assert.equal(server.requests.length, 2);
  });
});

Deno.test("agent.run() fails with an EndpointError naming the URL when the endpoint is down", async () => {
  await withWorkspace(async (dir) => {
    const baseURL = unusedBaseURL();
    const agent = createAgent({ baseURL, model: "m", cwd: dir, maxRetries: 1 });
    const error = await agent.run("anyone there?").then(
      () => undefined,
      (e) => e,
    );
    assert.ok(error instanceof EndpointError, String(error));
    assert.equal(error.url, `${baseURL}/chat/completions`);
    assert.equal(error.attempts, 2);
    assert.match(
      error.message,
      new RegExp(
        `Cannot reach the model endpoint ${baseURL}/chat/completions: connection refused`,
      ),
    );
  });
});

Deno.test("agent gives up on an endpoint that never answers after the request timeout", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "hang",
      replies: [{ hang: true }],
    }]);
    const agent = scriptedAgent(server, dir, {
      maxRetries: 0,
      requestTimeoutMs: 300,
    });
    await assert.rejects(agent.run("hang"), (error: unknown) => {
      assert.ok(error instanceof EndpointError);
      assert.match(error.message, /did not answer: no answer within 0\.3 s/);
      return true;
    });
  });
});

Deno.test("agent.run() aborted during a Shell call kills the process and rejects", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "run something slow",
      replies: [{
        toolCalls: [{
          name: "Shell",
          arguments: { command: "echo $$ > pid.txt; exec sleep 30" },
        }],
      }],
    }]);
    const agent = scriptedAgent(server, dir, {
      permissionMode: "allow",
    });
    const controller = new AbortController();
    const run = agent.run("run something slow", { signal: controller.signal });
    const pid = await waitForPid(join(dir, "pid.txt"));
    assert.ok(isAlive(pid));
    const abortedAt = performance.now();
    controller.abort();
    await assert.rejects(
      run,
      (error: unknown) => (error as Error).name === "AbortError",
    );
    assert.ok(
      performance.now() - abortedAt < 10_000,
      "the abort does not wait for the command",
    );
    assert.ok(await waitUntilGone(pid), "the sleep process is gone");
  });
});

async function makeImage(
  width: number,
  height: number,
  mime: "image/png" | "image/jpeg",
): Promise<Uint8Array> {
  const { createJimp } = await import("@jimp/core");
  const png = (await import("@jimp/js-png")).default;
  const jpeg = (await import("@jimp/js-jpeg")).default;
  const Jimp = createJimp({ formats: [png, jpeg] });
  const image = new Jimp({ width, height, color: 0xff0000ff });
  const data = await image.getBuffer(mime);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

Deno.test("createAgent() reads a symbol by name and edits it with EditSymbol, keeping the file's CRLF and tabs", async () => {
  await withWorkspace(async (dir) => {
    const source =
      "export class Greeter {\r\n\t/** Says hi. */\r\n\tgreet() {\r\n\t\treturn 'hi';\r\n\t}\r\n}\r\n";
    await Deno.writeTextFile(join(dir, "lib.ts"), source);
    await using server = startScriptedServer([{
      match: "change greet",
      replies: [
        {
          toolCalls: [{
            id: "call_read",
            name: "ReadFile",
            arguments: { path: "lib.ts", symbol: "greet" },
          }],
        },
        {
          toolCalls: [{
            id: "call_edit",
            name: "EditSymbol",
            arguments: {
              path: "lib.ts",
              symbol: "Greeter.greet",
              newText:
                "\t/** Says hello. */\n\tgreet() {\n\t\treturn 'hello';\n\t}\n",
            },
          }],
        },
        {
          toolCalls: [{
            id: "call_missing",
            name: "EditSymbol",
            arguments: { path: "lib.ts", symbol: "gret", newText: "x" },
          }],
        },
        { text: "Changed." },
      ],
    }]);
    const agent = scriptedAgent(server, dir, { permissionMode: "allow" });
    const events = await collect(agent.stream("change greet"));
    assert.equal(
      toolResultText(server, "call_read"),
      "2\t\t/** Says hi. */\n3\t\tgreet() {\n4\t\t\treturn 'hi';\n5\t\t}\n\n(method Greeter.greet: lines 2-5 of 6 in \"lib.ts\".)",
    );
    assert.match(
      toolResultText(server, "call_edit"),
      /^Edited "lib\.ts": method Greeter\.greet \(now lines 2-5\)\.\n--- lib\.ts\n/,
    );
    assert.equal(
      await Deno.readTextFile(join(dir, "lib.ts")),
      source.replace("Says hi", "Says hello").replace("'hi'", "'hello'"),
    );
    // A name that is not there reaches the model as an error with the nearest.
    assert.match(
      toolResultText(server, "call_missing"),
      /no symbol is named "gret"; the nearest names are method Greeter\.greet \(lines 3-5\)/,
    );
    const failed = events.filter((e) => e.type === "tool-error");
    assert.deepEqual(failed.map((e) => e.toolName), ["EditSymbol"]);
  });
});

Deno.test("createAgent() offers extra tools to the model and returns their failures as errors", async () => {
  await withWorkspace(async (dir) => {
    const lookup = {
      name: "docs_lookup",
      kind: "search" as const,
      description: "Looks up documentation.",
      inputSchema: {
        type: "object",
        properties: { topic: { type: "string" } },
        required: ["topic"],
      },
      execute(input: unknown): Promise<unknown> {
        const { topic } = input as { topic: string };
        if (topic === "boom") {
          return Promise.reject(new Error("the docs server is down"));
        }
        return Promise.resolve({ topic, text: `docs about ${topic}` });
      },
      toModelText: (output: unknown) => (output as { text: string }).text,
    };
    await using server = startScriptedServer([{
      match: "look it up",
      replies: [
        {
          toolCalls: [
            { name: "docs_lookup", arguments: { topic: "streams" }, id: "ok" },
            { name: "docs_lookup", arguments: { topic: "boom" }, id: "bad" },
          ],
        },
        { text: "done" },
      ],
    }]);
    const agent = scriptedAgent(server, dir, {
      extraTools: [lookup],
    });
    assert.equal(agent.tools.get("docs_lookup"), lookup);
    const events = await collect(agent.stream("look it up"));
    const offered = server.requests[0].body.tools!.find((t) =>
      t.function.name === "docs_lookup"
    )!;
    assert.equal(offered.function.description, "Looks up documentation.");
    assert.deepEqual(offered.function.parameters, lookup.inputSchema);
    const ok = events.find((e) => e.type === "tool-result");
    assert.ok(ok?.type === "tool-result");
    assert.equal(ok.kind, "search");
    assert.equal(ok.modelText, "docs about streams");
    const bad = events.find((e) => e.type === "tool-error");
    assert.ok(bad?.type === "tool-error");
    assert.equal(bad.error, "docs_lookup failed: the docs server is down");
    const byId = Object.fromEntries(
      toolMessages(server.requests[1]).map((
        m,
      ) => [m.tool_call_id, contentText(m.content)]),
    );
    assert.equal(byId.ok, "docs about streams");
    assert.match(byId.bad, /docs_lookup failed: the docs server is down/);
  });
});

Deno.test("createAgent() refuses bad options and a second run while one is running", async () => {
  await withWorkspace(async (dir) => {
    assert.throws(() => createAgent({ model: "" }), /"model" is required/);
    assert.throws(() => createAgent({ model: "m", maxSteps: 0 }), RangeError);
    assert.throws(
      () => createAgent({ model: "m", contextTokens: 1.5 }),
      /"contextTokens" must be a whole number of at least 1, not 1.5/,
    );
    assert.throws(
      () => createAgent({ model: "m", maxRetries: -1 }),
      /"maxRetries" must be a whole number of at least 0, not -1/,
    );
    assert.throws(
      () => createAgent({ model: "m", requestTimeoutMs: 2 ** 31 }),
      /"requestTimeoutMs" must be a whole number of milliseconds from 1 to/,
    );
    assert.throws(
      () => createAgent({ model: "m", baseURL: "not a url" }),
      /"baseURL" is not a URL/,
    );
    const clash = {
      ...createAgent({ model: "m", cwd: dir }).tools.get("ReadFile")!,
    };
    assert.throws(
      () => createAgent({ model: "m", cwd: dir, extraTools: [clash] }),
      /two tools are named "ReadFile"/,
    );
    await using server = startScriptedServer([{
      match: "slow one",
      replies: [{ text: "done", delayMs: 300 }],
    }]);
    const agent = scriptedAgent(server, dir);
    const first = agent.run("slow one");
    await new Promise((r) => setTimeout(r, 50));
    await assert.rejects(agent.run("meanwhile"), /already running one/);
    assert.equal((await first).text, "done");
    await assert.rejects(agent.run("   "), /the prompt is empty/);
  });
});

Deno.test("agent works with a server that answers plain JSON to streamed requests", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "from the file\n");
    await using server = startScriptedServer([{
      match: "no streaming here",
      replies: [
        {
          text: "Reading.",
          toolCalls: [{ name: "ReadFile", arguments: { path: "a.txt" } }],
        },
        { compute: (r) => ({ text: `Got: ${toolContents(r)[0].trim()}` }) },
      ],
    }], { ignoreStream: true });
    const agent = scriptedAgent(server, dir);
    const result = await agent.run("no streaming here");
    assert.equal(server.requests[0].body.stream, true);
    assert.equal(result.text, "Got: 1\tfrom the file");
    assert.deepEqual(result.usage, {
      inputTokens: 22,
      outputTokens: 14,
      totalTokens: 36,
    });
  });
});

Deno.test("ImageAnalysis reports a vision model that refuses images to the model", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeFile(
      join(dir, "pic.png"),
      await makeImage(8, 8, "image/png"),
    );
    await using server = startScriptedServer([
      {
        match: "describe pic",
        replies: [
          {
            toolCalls: [{
              name: "ImageAnalysis",
              arguments: { path: "pic.png", prompt: "blind model" },
            }],
          },
          { text: "That model cannot see." },
        ],
      },
      {
        match: "blind model",
        replies: [{
          failures: [{
            status: 400,
            body: '{"error":{"message":"this model does not support images"}}',
          }],
        }],
      },
    ]);
    const agent = scriptedAgent(server, dir);
    const events = await collect(agent.stream("describe pic"));
    const error = events.find((e) => e.type === "tool-error");
    assert.ok(error?.type === "tool-error");
    assert.match(
      error.error,
      /ImageAnalysis failed: Model endpoint .* answered 400 Bad Request: this model does not support images/,
    );
    assert.equal(
      (events.at(-1) as { result: { text: string } }).result.text,
      "That model cannot see.",
    );
  });
});

Deno.test("agent stops at maxSteps, and Subagent children at subagentMaxSteps", async () => {
  await withWorkspace(async (dir) => {
    const loop = { toolCalls: [{ name: "Plan", arguments: { entries: [] } }] };
    const childLoop = {
      toolCalls: [{ name: "ReadFile", arguments: { path: "nothing.txt" } }],
    };
    await using server = startScriptedServer([
      { match: "loop forever", replies: [loop, loop, loop, loop, loop] },
      {
        match: "delegate a loop",
        replies: [
          {
            toolCalls: [{
              name: "Subagent",
              arguments: {
                tasks: [{ description: "Loop", prompt: "child loops" }],
              },
            }],
          },
          { compute: (r) => ({ text: toolContents(r)[0] }) },
        ],
      },
      {
        match: "child loops",
        replies: [childLoop, childLoop, childLoop, childLoop],
      },
    ]);
    const agent = scriptedAgent(server, dir, {
      maxSteps: 3,
      subagentMaxSteps: 2,
    });
    const capped = await agent.run("loop forever");
    assert.equal(capped.steps, 3);
    assert.equal(capped.finishReason, "tool-calls");
    assert.equal(
      server.requests.filter((r) => r.conversation === "loop forever").length,
      3,
    );
    agent.reset();
    const delegated = await agent.run("delegate a loop");
    assert.match(
      delegated.text,
      /Loop \(completed\)\n\(the helper hit its limit of 2 model calls before finishing\)/,
    );
    assert.equal(
      server.requests.filter((r) => r.conversation === "child loops").length,
      2,
    );
  });
});

Deno.test("agent.stream() passes reasoning on as reasoning-delta events", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "think first",
      replies: [{
        reasoning: "The user wants a short answer.",
        text: "Short.",
      }],
    }]);
    const agent = scriptedAgent(server, dir);
    const events = await collect(agent.stream("think first"));
    const reasoning = events.filter((e) => e.type === "reasoning-delta").map((
      e,
    ) => e.text).join("");
    assert.equal(reasoning, "The user wants a short answer.");
    assert.equal(
      (events.at(-1) as { result: { text: string } }).result.text,
      "Short.",
    );
  });
});

// ---- History: agent.history and createAgent({ history }) ----

/** What a saved conversation becomes after a trip through a file. */
function throughJson(history: AgentMessage[]): AgentMessage[] {
  return JSON.parse(JSON.stringify(history));
}

function messageText(message: ChatMessage | undefined): string {
  return contentText(message?.content) || String(message?.content ?? "");
}

Deno.test("createAgent({ history }) goes on with a conversation another agent saved as JSON", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    await using server = startScriptedServer([{
      match: "Read the notes",
      replies: [
        { toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }] },
        { text: "They say 42." },
        { text: "You asked about the notes." },
      ],
    }]);
    const first = scriptedAgent(server, dir);
    assert.equal(first.history.length, 0);
    await first.run("Read the notes");
    const saved = JSON.stringify(first.history);
    assert.deepEqual(
      first.history.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    // A copy: changing it changes nothing in the agent.
    first.history.pop();
    assert.equal(first.history.length, 4);

    const history: AgentMessage[] = JSON.parse(saved);
    const second = scriptedAgent(server, dir, {
      history,
    });
    assert.deepEqual(second.history, history);
    history.length = 0; // the agent kept its own copy
    const result = await second.run("What did I ask?");
    assert.equal(result.text, "You asked about the notes.");
    const sent = server.requests.at(-1)!.body.messages;
    assert.deepEqual(
      sent.map((m) => m.role),
      ["system", "user", "assistant", "tool", "assistant", "user"],
    );
    assert.match(
      contentText(sent[3].content) || String(sent[3].content),
      /the answer is 42/,
    );
    assert.equal(second.history.length, 6);
    second.reset();
    assert.deepEqual(second.history, []);
  });
});

Deno.test("createAgent({ history }) refuses a damaged conversation, naming the message", () => {
  assert.throws(
    () =>
      createAgent({
        model: "m",
        history: [
          { role: "user", content: "go" },
          {
            role: "tool",
            content: [{
              type: "tool-result",
              toolCallId: "x",
              toolName: "ReadFile",
              output: { type: "text", value: "" },
            }],
          },
        ],
      }),
    {
      name: "TypeError",
      message:
        'Cannot create the agent: "history" is not a conversation to go on with: message 1 answers call "x", which the assistant message before it did not make or another message answered; give what an agent\'s history gave',
    },
  );
  assert.throws(
    () =>
      createAgent({
        model: "m",
        history: "hello" as unknown as AgentMessage[],
      }),
    /"history" is not a conversation to go on with: it is not an array/,
  );
});

Deno.test("agent.reset() before the first run drops the history it was given", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "Fresh",
      replies: [{ text: "new" }],
    }]);
    const agent = scriptedAgent(server, dir, {
      history: [{ role: "user", content: "old" }, {
        role: "assistant",
        content: "old answer",
      }],
    });
    agent.reset();
    await agent.run("Fresh start");
    const roles = server.requests[0].body.messages.map((m) => m.role);
    assert.deepEqual(roles, ["system", "user"]);
  });
});

Deno.test("agent.history through JSON keeps reasoning, parallel, failed, invalid and unknown calls, and ids reused across steps, as valid requests", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "hello\n");
    await using server = startScriptedServer([{
      match: "Look around",
      replies: [
        {
          reasoning: "Two reads at once.",
          text: "Reading.",
          toolCalls: [
            { id: "call_0", name: "ReadFile", arguments: { path: "a.txt" } },
            {
              id: "call_1",
              name: "fetch_log",
              arguments: { label: "boom", size: 2, fail: true },
            },
            { id: "call_2", name: "ReadFile", arguments: "{broken" },
          ],
        },
        // This server numbers calls per answer: the ids come again.
        { toolCalls: [{ id: "call_0", name: "NoSuchTool", arguments: {} }] },
        { reasoning: "Done.", text: "a.txt says hello." },
        { text: "You asked me to look around." },
      ],
    }]);
    const options = {
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      extraTools: [logTool()],
    };
    const first = createAgent(options);
    await first.run("Look around");
    const history = throughJson(first.history);
    assert.deepEqual(history.map((m) => m.role), [
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);

    const second = createAgent({ ...options, history });
    const result = await second.run("What did I ask?");
    assert.equal(result.text, "You asked me to look around.");
    const sent = server.requests.at(-1)!.body.messages;
    assertAllValid([server.requests.at(-1)!]);
    assert.deepEqual(sent.map((m) => m.role), [
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    const tools = sent.filter((m) => m.role === "tool").map(messageText);
    assert.match(tools[0], /hello/);
    assert.match(tools[1], /boom/);
    assert.match(tools[2], /Invalid input for tool ReadFile/);
    assert.match(tools[3], /unavailable tool 'NoSuchTool'/);
    assert.equal(
      (sent[2] as { reasoning_content?: string }).reasoning_content,
      "Two reads at once.",
    );
    // The new agent's history is the old one plus this turn, still loadable.
    assert.deepEqual(second.history.slice(0, history.length), history);
    createAgent({ ...options, history: throughJson(second.history) });
  });
});

Deno.test("an aborted run leaves out its unfinished step, and a run cut at maxSteps ends in answered calls: both load and go on", async () => {
  await withWorkspace(async (dir) => {
    const waiting = Promise.withResolvers<void>();
    // A continuation ("Go on") is answered whatever the turn; the scripted
    // steps otherwise.
    const orGoOn = (reply: ScriptedReply): ScriptedReply => ({
      compute: (request) =>
        messageText(request.body.messages.at(-1)) === "Go on"
          ? { text: "going on" }
          : reply,
    });
    await using server = startScriptedServer([
      {
        match: "Abort me",
        replies: [
          {
            toolCalls: [{
              name: "fetch_log",
              arguments: { label: "one", size: 1 },
            }],
          },
          // Two calls at once: one ends, one runs until the abort.
          orGoOn({
            toolCalls: [
              { name: "fetch_log", arguments: { label: "two", size: 1 } },
              {
                name: "fetch_log",
                arguments: { label: "three", size: 1, wait: true },
              },
            ],
          }),
        ],
      },
      {
        match: "Cap me",
        replies: [
          {
            toolCalls: [{
              name: "fetch_log",
              arguments: { label: "capped", size: 1 },
            }],
          },
          orGoOn({ text: "never sent" }),
        ],
      },
    ]);
    const options = {
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      extraTools: [logTool(waiting.resolve)],
    };
    const aborted = createAgent(options);
    const controller = new AbortController();
    waiting.promise.then(() => controller.abort());
    await assert.rejects(
      aborted.run("Abort me", { signal: controller.signal }),
      { name: "AbortError" },
    );
    const afterAbort = throughJson(aborted.history);
    assert.deepEqual(afterAbort.map((m) => m.role), [
      "user",
      "assistant",
      "tool",
    ]);
    assert.doesNotMatch(JSON.stringify(afterAbort), /two|three/);

    const capped = createAgent({ ...options, maxSteps: 1 });
    const cut = await capped.run("Cap me");
    assert.equal(cut.finishReason, "tool-calls");
    const afterCap = throughJson(capped.history);
    assert.deepEqual(afterCap.map((m) => m.role), [
      "user",
      "assistant",
      "tool",
    ]);

    for (const history of [afterAbort, afterCap]) {
      const next = createAgent({ ...options, history });
      assert.equal((await next.run("Go on")).text, "going on");
      const request = server.requests.at(-1)!;
      assertRoles(request, "system user assistant tool user");
    }
  });
});

Deno.test("histories with cleared calls and summaries load in a new agent each turn, and every request stays valid", async () => {
  await withWorkspace(async (dir) => {
    // Each turn: six steps of long text and two calls (one failing), then a
    // long answer.
    let n = 0;
    const step = (): ScriptedReply => {
      n++;
      return n <= 6
        ? {
          text: `Step ${n}: ${"thinking aloud ".repeat(300)}`,
          toolCalls: [
            { name: "fetch_log", arguments: { label: `l${n}`, size: 4_000 } },
            {
              name: "fetch_log",
              arguments: { label: `f${n}`, size: 10, fail: true },
            },
          ],
        }
        : { text: `turn done ${"z".repeat(3_000)}` };
    };
    await using server = startScriptedServer([
      { match: "## User", replies: [{ text: "SUMMARY so far" }] },
      {
        match: "",
        replies: Array.from({ length: 40 }, () => ({ compute: step })),
      },
    ]);
    let history: AgentMessage[] = [];
    let summaries = 0;
    for (let turn = 1; turn <= 3; turn++) {
      n = 0;
      const agent = scriptedAgent(server, dir, {
        extraTools: [logTool()],
        contextTokens: 12_000,
        maxSteps: 20,
        history,
      });
      for await (const event of agent.stream(`Turn ${turn}`)) {
        if (event.type === "context-summarized") summaries++;
      }
      history = throughJson(agent.history);
    }
    const main = server.requests.filter((r) => r.conversation !== "## User");
    assert.equal(main.length, 21);
    assert.ok(summaries >= 2, `${summaries} summaries`);
    assertAllValid(main);
    const all = JSON.stringify(main.map((r) => r.body.messages));
    assert.match(all, /Output cleared to keep the conversation/);
    assert.match(all, /SUMMARY so far/);
    // The last turn's requests still hold its own prompt after the summary.
    assert.match(JSON.stringify(main.at(-1)!.body.messages), /Turn 3/);
  });
});

Deno.test("createAgent({ history }) refuses a call whose answer comes after another message, and names it", () => {
  const call = {
    role: "assistant" as const,
    content: [{
      type: "tool-call",
      toolCallId: "c1",
      toolName: "ReadFile",
      input: { path: "a.txt" },
    }],
  };
  const result = {
    role: "tool" as const,
    content: [{
      type: "tool-result",
      toolCallId: "c1",
      toolName: "ReadFile",
      output: { type: "text", value: "hi" },
    }],
  };
  assert.throws(
    () =>
      createAgent({
        model: "m",
        history: [{ role: "user", content: "go" }, call, {
          role: "user",
          content: "and?",
        }, result],
      }),
    /message 1 makes call "c1", which no tool message right after it answers/,
  );
  assert.throws(
    () =>
      createAgent({
        model: "m",
        history: [{ role: "user", content: "go" }, call],
      }),
    /message 1 makes call "c1"/,
  );
  // The same pair twice (ids reused by a server) is a conversation.
  createAgent({
    model: "m",
    history: [{ role: "user", content: "go" }, call, result, call, result],
  });
});

Deno.test("agent: a leading <think> block is reasoning, and the history round trip through JSON keeps the answer", async () => {
  await using server = startScriptedServer([{
    match: "first question",
    replies: [{ text: "<think>plan it</think>The answer is 4." }, {
      text: "still 4",
    }],
  }]);
  await withWorkspace(async (dir) => {
    const agent = scriptedAgent(server, dir);
    const result = await agent.run("first question");
    assert.equal(result.text, "The answer is 4.");
    const history = JSON.parse(JSON.stringify(agent.history));
    const later = scriptedAgent(server, dir, {
      history,
    });
    assert.equal((await later.run("and again?")).text, "still 4");
    const sent = server.requests.at(-1)!.body.messages;
    const assistant = sent.filter((m) => m.role === "assistant");
    assert.equal(assistant.length, 1);
    assert.match(contentText(assistant[0].content), /The answer is 4\./);
    assert.doesNotMatch(contentText(assistant[0].content), /<think>/);
  });
});

// ---- Endpoints that misbehave ----

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("the run succeeded");
}

Deno.test("agent names the endpoint URL when a 200 answer is HTML, cut mid-stream, an error chunk or an error JSON", async () => {
  await withWorkspace(async (dir) => {
    await using html = startRawServer(() =>
      new Response("<html><body>Please log in</body></html>", {
        headers: { "content-type": "text/html" },
      })
    );
    await using errorChunk = startRawServer(() =>
      sse(
        event({ role: "assistant", content: "" }) +
          `data: ${
            JSON.stringify({
              error: { message: "upstream model overloaded", code: 503 },
            })
          }\n\n` + "data: [DONE]\n\n",
      )
    );
    // A 200 JSON body that is an error (LiteLLM and some proxies do this).
    await using jsonError = startRawServer(() =>
      Response.json({
        error: { message: "Model qwen3 is still loading, retry later" },
      })
    );
    await using cut = startCutServer();
    const problems: string[] = [];
    for (
      const [name, baseURL] of Object.entries({
        html: html.baseURL,
        cut: cut.baseURL,
        errorChunk: errorChunk.baseURL,
        jsonError: jsonError.baseURL,
      })
    ) {
      const agent = createAgent({
        baseURL,
        model: "m",
        cwd: dir,
        maxRetries: 0,
      });
      const error = await failureOf(agent.run("hello"));
      const url = `${baseURL}/chat/completions`;
      // The server's own words must survive too.
      const said = name === "jsonError" ? /still loading/ : /./;
      if (
        !(error instanceof EndpointError) || !error.message.includes(url) ||
        !said.test(error.message)
      ) {
        problems.push(`${name}: ${error.name}: ${error.message}`);
      }
    }
    assert.deepEqual(problems, [], "each failure names the endpoint URL");
  });
});

Deno.test("agent retried after an error chunk mid-answer sends the user's prompt once", async () => {
  await withWorkspace(async (dir) => {
    await using server = startRawServer((n) =>
      n === 0
        ? sse(
          event({ role: "assistant", content: "" }) +
            `data: ${
              JSON.stringify({ error: { message: "upstream overloaded" } })
            }\n\n` + "data: [DONE]\n\n",
        )
        : sse(answerText("Fixed it."))
    );
    const agent = scriptedAgent(server, dir, {
      maxRetries: 0,
    });
    await failureOf(agent.run("Fix the failing test"));
    const result = await agent.run("Fix the failing test");
    assert.equal(result.text, "Fixed it.");
    const prompts = server.bodies[1].messages.filter((m) => m.role === "user");
    assert.equal(
      prompts.length,
      1,
      `the retried request holds the prompt once, not: ${
        JSON.stringify(server.bodies[1].messages.slice(1))
      }`,
    );
  });
});

Deno.test("agent keeps an answer that mentions <think> in code as text, not reasoning", async () => {
  const answer =
    "Strip them with `text.replace(/<think>[\\s\\S]*?<\\/think>/g, " +
    '"")`; it removes every `<think>` block.';
  await using server = startScriptedServer([{
    match: "how do I strip",
    replies: [{ text: answer }],
  }]);
  await withWorkspace(async (dir) => {
    const agent = scriptedAgent(server, dir);
    const result = await agent.run("how do I strip think tags?");
    assert.equal(result.text, answer);
  });
});

// ---- Streaming dialects of real servers ----
// Each test replays a raw SSE stream the way a server writes it and checks
// the text the user gets, the tool calls run with their arguments, and the
// history sent on the next turn.

/**
 * An endpoint whose n-th chat request gets the SSE `replies[n]`; `pieceBytes`
 * sends the body in pieces that long, the way a slow server's TCP segments
 * split lines and UTF-8 characters.
 */
function dialectServer(replies: string[], pieceBytes?: number): RawServer {
  return startRawServer((n) => {
    const body = replies[n] ?? answerText("(no more replies)");
    return sse(pieceBytes ? dribble(body, pieceBytes) : body);
  });
}

/** A search tool that records its inputs; `ping` takes no argument. */
function recordingTools(): {
  calls: { name: string; input: unknown }[];
  tools: NonNullable<Parameters<typeof createAgent>[0]["extraTools"]>;
} {
  const calls: { name: string; input: unknown }[] = [];
  const make = (name: string, schema: Record<string, unknown>) => ({
    name,
    kind: "search" as const,
    description: `The ${name} tool.`,
    inputSchema: schema,
    execute(input: unknown): Promise<unknown> {
      calls.push({ name, input });
      return Promise.resolve({ text: `${name} said ${JSON.stringify(input)}` });
    },
    toModelText: (output: unknown) => (output as { text: string }).text,
  });
  return {
    calls,
    tools: [
      make("lookup", {
        type: "object",
        properties: { topic: { type: "string" } },
        required: ["topic"],
        additionalProperties: false,
      }),
      make("ping", { type: "object", properties: {} }),
    ],
  };
}

/** Runs one prompt against `replies`, collecting events and bodies. */
async function runDialect(replies: string[], pieceBytes?: number): Promise<{
  events: AgentEvent[];
  calls: { name: string; input: unknown }[];
  bodies: ChatBody[];
  text: string;
  usage: Record<string, unknown>;
  history: unknown[];
}> {
  let out: Awaited<ReturnType<typeof runDialect>> | undefined;
  await withWorkspace(async (dir) => {
    await using server = dialectServer(replies, pieceBytes);
    const { calls, tools } = recordingTools();
    const agent = scriptedAgent(server, dir, {
      extraTools: tools,
      maxRetries: 0,
    });
    const events = await collect(agent.stream("go"));
    const finish = events.at(-1);
    assert.ok(finish?.type === "finish", `last event: ${finish?.type}`);
    out = {
      events,
      calls,
      bodies: server.bodies,
      text: finish.result.text,
      usage: finish.result.usage as Record<string, unknown>,
      history: [...agent.history],
    };
  });
  return out!;
}

/** The tool errors of a run: a well-formed call should cause none. */
function errorsOf(events: AgentEvent[]): string[] {
  return events.flatMap((e) => e.type === "tool-error" ? [e.error] : []);
}

/** The assistant tool calls and tool results the second request sent back. */
function sentBack(body: ChatBody): {
  calls: { id: string; name: string; args: unknown }[];
  results: { id: string; text: string }[];
} {
  const calls = body.messages.flatMap((m) =>
    (m.tool_calls ?? []).map((c) => ({
      id: c.id,
      name: c.function.name,
      args: JSON.parse(c.function.arguments),
    }))
  );
  const results = body.messages.filter((m) => m.role === "tool").map((m) => ({
    id: m.tool_call_id!,
    text: typeof m.content === "string" ? m.content : JSON.stringify(m.content),
  }));
  return { calls, results };
}

function assertPairedUp(body: ChatBody, count: number): void {
  const { calls, results } = sentBack(body);
  assert.equal(calls.length, count, JSON.stringify(body.messages));
  assert.equal(results.length, count);
  assert.deepEqual(
    results.map((r) => r.id).sort(),
    calls.map((c) => c.id).sort(),
  );
  assert.equal(new Set(calls.map((c) => c.id)).size, count, "ids are unique");
}

// Ollama's /v1 writes each tool call whole in one chunk, with its id, and the
Deno.test("agent runs Ollama's whole-chunk tool calls even when finish_reason is stop", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      content: "",
      tool_calls: [{
        id: "call_abc123",
        index: 0,
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"streams"}' },
      }],
    }),
    chunk({ role: "assistant", content: "" }, "stop"),
    chunk({ role: "assistant", content: "" }, null, {
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }),
  ]);
  const run = await runDialect([toolTurn, answerText("streams explained")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls, [{
    name: "lookup",
    input: { topic: "streams" },
  }]);
  assert.equal(run.text, "streams explained");
  assert.equal(run.bodies.length, 2);
  assertPairedUp(run.bodies[1], 1);
  assert.equal(sentBack(run.bodies[1]).calls[0].id, "call_abc123");
  assert.equal(run.usage.inputTokens, 10);
  assert.equal(run.usage.outputTokens, 5);
});

// vLLM and OpenAI-style servers interleave two parallel calls' argument
// fragments by index; Groq sends each whole with the id repeated.
Deno.test("agent runs two interleaved parallel tool calls with the right arguments (vLLM)", async () => {
  const call = (index: number, fn: Record<string, string>, id?: string) => ({
    index,
    ...(id ? { id, type: "function" } : {}),
    function: fn,
  });
  const toolTurn = frames([
    chunk({ role: "assistant", content: null }),
    chunk({
      content: null,
      tool_calls: [
        call(0, { name: "lookup", arguments: "" }, "chatcmpl-tool-a"),
      ],
    }),
    chunk({
      tool_calls: [
        call(1, { name: "lookup", arguments: "" }, "chatcmpl-tool-b"),
      ],
    }),
    chunk({ tool_calls: [call(0, { arguments: '{"topic":' })] }),
    chunk({ tool_calls: [call(1, { arguments: '{"topic":"b' })] }),
    chunk({ tool_calls: [call(0, { arguments: '"a"}' })] }),
    chunk({ tool_calls: [call(1, { arguments: 'eta"}' })] }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answerText("both done")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(
    run.calls.map((c) => c.input).sort((a, b) =>
      JSON.stringify(a) < JSON.stringify(b) ? -1 : 1
    ),
    [{ topic: "a" }, { topic: "beta" }],
  );
  assertPairedUp(run.bodies[1], 2);
  const back = sentBack(run.bodies[1]);
  const byId = Object.fromEntries(back.calls.map((c) => [c.id, c.args]));
  assert.deepEqual(byId["chatcmpl-tool-a"], { topic: "a" });
  assert.deepEqual(byId["chatcmpl-tool-b"], { topic: "beta" });
  for (const result of back.results) {
    const topic = (byId[result.id] as { topic: string }).topic;
    assert.match(result.text, new RegExp(`"topic":"${topic}"`));
  }
  assert.equal(run.text, "both done");
});

// Some servers (LM Studio, Gemini's OpenAI layer, proxies) send parallel calls
// without `index`, each whole with its own id.
Deno.test("agent runs parallel tool calls sent without index", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        id: "call_1",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"one"}' },
      }],
    }),
    chunk({
      tool_calls: [{
        id: "call_2",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"two"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answerText("ok")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls.map((c) => c.input), [
    { topic: "one" },
    { topic: "two" },
  ]);
  assertPairedUp(run.bodies[1], 2);
});

// Some servers number tool calls after the content parts (index 1, 2).
Deno.test("agent runs tool calls whose index does not start at 0", async () => {
  const toolTurn = frames([
    chunk({ role: "assistant", content: "Let me check." }),
    chunk({
      tool_calls: [{
        index: 1,
        id: "t1",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":' },
      }],
    }),
    chunk({ tool_calls: [{ index: 1, function: { arguments: '"x"}' } }] }),
    chunk({
      tool_calls: [{
        index: 2,
        id: "t2",
        type: "function",
        function: { name: "ping", arguments: "{}" },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answerText("checked")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls, [
    { name: "lookup", input: { topic: "x" } },
    { name: "ping", input: {} },
  ]);
  assertPairedUp(run.bodies[1], 2);
  // result.text is the last model call's text (documented); the first
  // call's text still reaches the user as text-delta events.
  const streamed = run.events.flatMap((e) =>
    e.type === "text-delta" ? [e.text] : []
  ).join("");
  assert.equal(streamed, "Let me check.checked");
  assert.equal(run.text, "checked");
});

// vLLM and llama.cpp send `""` as the arguments of a tool without parameters.
Deno.test("agent runs a no-argument tool whose arguments are empty", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        index: 0,
        id: "p1",
        type: "function",
        function: { name: "ping", arguments: "" },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answerText("pong")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls, [{ name: "ping", input: {} }]);
  assertPairedUp(run.bodies[1], 1);
  // The history the next request carries is valid JSON for the server.
  assert.deepEqual(sentBack(run.bodies[1]).calls[0].args, {});
});

// Servers that omit tool call ids (older LM Studio / MLX) or send "" for them.
Deno.test("agent pairs tool calls and results when the server sends no ids", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        index: 0,
        id: "",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"p"}' },
      }],
    }),
    chunk({
      tool_calls: [{
        index: 1,
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"q"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answerText("ok")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.equal(run.calls.length, 2);
  assertPairedUp(run.bodies[1], 2);
});

// OpenRouter: SSE comments while it waits, CRLF from some proxies, a
// keep-alive chunk with no choices, usage only in a final `choices: []` chunk.
Deno.test("agent reads OpenRouter's comments, CRLF, empty-choices chunks and usage-only last chunk", async () => {
  const stream = frames([
    ": OPENROUTER PROCESSING",
    ": OPENROUTER PROCESSING",
    chunk(null),
    chunk({ role: "assistant", content: "Hel" }),
    chunk({ content: null }),
    chunk({ content: "lo" }),
    chunk({ content: "" }, "stop"),
    chunk(null, null, {
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    }),
  ], { eol: "\r\n" });
  const run = await runDialect([stream]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.equal(run.text, "Hello");
  assert.equal(run.usage.inputTokens, 12);
  assert.equal(run.usage.outputTokens, 3);
});

// llama.cpp's server and some proxies end the stream without `data: [DONE]`.
Deno.test("agent accepts a stream that ends without [DONE], and one without usage", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        index: 0,
        id: "c",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"z"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ], { done: false });
  const closing = frames([
    chunk({ role: "assistant", content: "fin" }),
    chunk({}, "stop"),
  ], { done: false });
  const run = await runDialect([toolTurn, closing]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls.map((c) => c.input), [{ topic: "z" }]);
  assert.equal(run.text, "fin");
  assertPairedUp(run.bodies[1], 1);
});

// DeepSeek (reasoning_content) and OpenRouter / vLLM >= 0.10 (reasoning):
// the thinking is reasoning, the answer is text, and tool calls after thinking run.
Deno.test("agent separates reasoning_content and reasoning fields from the answer (DeepSeek, OpenRouter)", async () => {
  const toolTurn = frames([
    chunk({ role: "assistant", content: null, reasoning_content: "Need " }),
    chunk({ content: null, reasoning_content: "a lookup." }),
    chunk({
      content: null,
      tool_calls: [{
        index: 0,
        id: "r1",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"r"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const closing = frames([
    chunk({ role: "assistant", content: "", reasoning: "Got it." }),
    chunk({ content: "Answer.", reasoning: null }),
    chunk({}, "stop"),
  ]);
  const run = await runDialect([toolTurn, closing]);
  assert.deepEqual(errorsOf(run.events), []);
  const reasoning = run.events.flatMap((e) =>
    e.type === "reasoning-delta" ? [e.text] : []
  ).join("");
  assert.equal(reasoning, "Need a lookup.Got it.");
  // DeepSeek's thinking mode with tools wants the reasoning of a tool-call
  // turn sent back with it; the provider sends it as reasoning_content.
  const assistant = run.bodies[1].messages.find((m) => m.tool_calls);
  assert.equal(assistant?.reasoning_content, "Need a lookup.");
  assert.equal(run.text, "Answer.");
  assert.deepEqual(run.calls.map((c) => c.input), [{ topic: "r" }]);
  assertPairedUp(run.bodies[1], 1);
});

// Qwen3 / DeepSeek-R1 distills served by llama.cpp without --reasoning-format
// (or LM Studio with "separate reasoning_content" off, or Ollama < 0.9) put the
// thinking inside content as `<think>...</think>`: it is reasoning.
Deno.test("agent turns <think>...</think> inside content into reasoning (Qwen via llama.cpp)", async () => {
  const stream = frames([
    chunk({ role: "assistant", content: "<think>" }),
    chunk({ content: "\nThe user greets me.\n" }),
    chunk({ content: "</think>\n\n" }),
    chunk({ content: "Hello!" }),
    chunk({}, "stop"),
  ]);
  const run = await runDialect([stream]);
  assert.deepEqual(errorsOf(run.events), []);
  const reasoning = run.events.flatMap((e) =>
    e.type === "reasoning-delta" ? [e.text] : []
  ).join("");
  assert.match(reasoning, /The user greets me/);
  assert.equal(run.text.trim(), "Hello!");
});

// Servers that repeat the id (and some the name) in every fragment of a call:
// Ollama's streamed tool calls, Mistral's parser in vLLM, LM Studio.
Deno.test("agent joins argument fragments that repeat the call's id and name", async () => {
  const part = (args: string, name?: string) => ({
    index: 0,
    id: "call_same",
    type: "function",
    function: name ? { name, arguments: args } : { arguments: args },
  });
  const idOnly = frames([
    chunk({ role: "assistant", tool_calls: [part('{"to', "lookup")] }),
    chunk({ tool_calls: [part('pic":"id')] }),
    chunk({ tool_calls: [part('s"}')] }),
    chunk({}, "tool_calls"),
  ]);
  const withName = frames([
    chunk({ role: "assistant", tool_calls: [part('{"topic":', "lookup")] }),
    chunk({ tool_calls: [part('"na', "lookup")] }),
    chunk({ tool_calls: [part('mes"}', "lookup")] }),
    chunk({}, "tool_calls"),
  ]);
  for (const [stream, topic] of [[idOnly, "ids"], [withName, "names"]]) {
    const run = await runDialect([stream, answerText("ok")]);
    assert.deepEqual(errorsOf(run.events), [], topic);
    assert.deepEqual(run.calls, [{ name: "lookup", input: { topic } }]);
    assertPairedUp(run.bodies[1], 1);
  }
});

// Any server over a slow link: TCP pieces split SSE lines, CRLF pairs and
// multi-byte UTF-8 characters (CJK text, emoji) at arbitrary bytes.
Deno.test("agent keeps text and arguments whole when bytes arrive split mid-character", async () => {
  const toolTurn = frames([
    chunk({ role: "assistant", content: "查一下 🔍 " }),
    chunk({
      tool_calls: [{
        index: 0,
        id: "u1",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"流式 ✓"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ], { eol: "\r\n" });
  const run = await runDialect([toolTurn, answerText("好的 👍")], 5);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls, [{ name: "lookup", input: { topic: "流式 ✓" } }]);
  const streamed = run.events.flatMap((e) =>
    e.type === "text-delta" ? [e.text] : []
  ).join("");
  assert.equal(streamed, "查一下 🔍 好的 👍");
  assert.deepEqual(sentBack(run.bodies[1]).calls[0].args, { topic: "流式 ✓" });
});

// Gateways written in Go or Java often emit `data:` with no space, and
// `event:` / `id:` / `retry:` fields around it.
Deno.test("agent reads SSE with data: without a space and extra event, id and retry fields", async () => {
  const body = [
    "retry: 3000",
    "",
    "event: message",
    "id: 1",
    `data:${JSON.stringify(chunk({ role: "assistant", content: "Hi" }))}`,
    "",
    "id: 2",
    `data:${JSON.stringify(chunk({ content: " there" }, "stop"))}`,
    "",
    "data:[DONE]",
    "",
    "",
  ].join("\n");
  const run = await runDialect([body]);
  assert.equal(run.text, "Hi there");
});

// Hugging Face TGI's OpenAI layer ends with finish_reason "eos_token"; old
// llama.cpp builds with "eos". Neither is a failure.
Deno.test("agent accepts finish_reason values outside OpenAI's list (TGI eos_token)", async () => {
  const run = await runDialect([
    frames([
      chunk({ role: "assistant", content: "Done here." }),
      chunk({}, "eos_token"),
    ]),
  ]);
  assert.equal(run.text, "Done here.");
});

// A local server's output cap (llama.cpp -n, Ollama num_predict) cuts a tool
// call's arguments: finish_reason "length" with half a JSON object.
Deno.test("agent does not run a tool call cut off at length, and tells the model", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        index: 0,
        id: "cut",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"tr' },
      }],
    }),
    chunk({}, "length"),
  ]);
  const run = await runDialect([toolTurn, answerText("retrying later")]);
  assert.deepEqual(run.calls, []);
  assert.equal(errorsOf(run.events).length, 1);
  const back = sentBack(run.bodies[1]); // arguments parse: the server accepts them
  assert.equal(back.calls.length, 1);
  assert.match(back.results[0].text, /lookup[\s\S]*JSON/);
  assert.equal(run.text, "retrying later");
});

// ---- Subagent and ImageAnalysis under load ----

Deno.test("a Subagent's edits of its parent's file wait their turn, without a deadlock, in ask mode", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "start\n");
    await using server = startScriptedServer([
      {
        match: "parent task",
        replies: [{
          toolCalls: [
            {
              name: "WriteFile",
              arguments: { path: "a.txt", content: "parent\n" },
            },
            {
              name: "Subagent",
              arguments: {
                tasks: [{ description: "edit", prompt: "child task: edit" }],
              },
            },
            {
              name: "EditFile",
              arguments: {
                path: "a.txt",
                oldText: "parent",
                newText: "parent2",
              },
            },
          ],
        }, { text: "all done" }],
      },
      {
        match: "child task",
        replies: [{
          toolCalls: [{
            name: "EditFile",
            arguments: { path: "a.txt", oldText: "parent2", newText: "child" },
          }],
        }, { text: "child done" }],
      },
    ]);
    const asked: string[] = [];
    const agent = scriptedAgent(server, dir, {
      permissionMode: "ask",
      approve: async (request) => {
        asked.push(request.description);
        await new Promise((resolve) => setTimeout(resolve, 30));
        return true;
      },
    });
    const result = await agent.run("parent task");
    assert.equal(result.text, "all done");
    assert.deepEqual(asked, [
      'Write 7 bytes to "a.txt"',
      'Edit "a.txt"',
      'Edit "a.txt"',
    ]);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "child\n");
    assert.equal(queuedFileCount(), 0);
  });
});

/** A grayscale PNG of `side` x `side` pixels, small on disk (it compresses well). */
async function hugePng(side: number): Promise<Uint8Array> {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, side);
  view.setUint32(4, side);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  const row = new Uint8Array(1 + side).map((_, x) => x & 255);
  row[0] = 0; // no filter
  const deflate = new CompressionStream("deflate");
  const writer = deflate.writable.getWriter();
  const compressed = new Response(deflate.readable).arrayBuffer();
  for (let y = 0; y < side; y++) await writer.write(row);
  await writer.close();
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const parts = [
    new Uint8Array(signature),
    pngChunk("IHDR", header),
    pngChunk("IDAT", new Uint8Array(await compressed)),
    pngChunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce(
    (offset, part) => (out.set(part, offset), offset + part.length),
    0,
  );
  return out;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

Deno.test("agent aborted while ImageAnalysis downscales a large image rejects within a second", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeFile(join(dir, "scan.png"), await hugePng(8000));
    await using server = startScriptedServer([
      {
        match: "look at the scan",
        replies: [{
          toolCalls: [{
            name: "ImageAnalysis",
            arguments: { path: "scan.png" },
          }],
        }],
      },
    ]);
    const agent = scriptedAgent(server, dir);
    const controller = new AbortController();
    let abortDue = 0;
    const started = performance.now();
    const error = await failureOf((async () => {
      for await (
        const event of agent.stream("look at the scan", {
          signal: controller.signal,
        })
      ) {
        if (event.type === "tool-call") {
          abortDue = performance.now() + 100;
          setTimeout(
            () => controller.abort(new Error("user cancelled")),
            100,
          );
        }
      }
    })());
    const late = performance.now() - abortDue;
    assert.ok(abortDue > started, "the ImageAnalysis call was made");
    assert.equal(error.message, "user cancelled");
    assert.ok(
      late < 1_000,
      `the run ended ${Math.round(late)} ms after the abort was due`,
    );
  });
});

Deno.test("createAgent() with a missing workspace folder fails naming the folder", async () => {
  await withWorkspace(async (dir) => {
    const missing = join(dir, "no-such-workspace");
    await using server = startScriptedServer([{
      match: "look at a.txt",
      replies: [
        { toolCalls: [{ name: "ReadFile", arguments: { path: "a.txt" } }] },
        { text: "I could not find it." },
      ],
    }]);
    const error = await failureOf((async () => {
      const agent = scriptedAgent(server, missing);
      await agent.run("look at a.txt");
    })());
    assert.match(error.message, /no-such-workspace/);
    assert.equal(server.requests.length, 0, "the model was not asked");
  });
});
