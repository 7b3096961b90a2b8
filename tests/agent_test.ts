// The agent loop against the scripted OpenAI-compatible server: real HTTP, the
// real AI SDK client, real tools on a temporary workspace.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type AgentEvent,
  type AgentPermissionRequest,
  createAgent,
  EndpointError,
} from "../mod.ts";
import {
  contentText,
  type RecordedRequest,
  startScriptedServer,
  toolMessages,
  unusedBaseURL,
} from "./support/scripted_server.ts";
import { isAlive, waitForPid, waitUntilGone } from "./support/processes.ts";
import { withWorkspace } from "./support/workspace.ts";

async function collect(
  events: AsyncIterable<AgentEvent>,
): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
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
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
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
