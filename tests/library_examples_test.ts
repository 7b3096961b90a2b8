// The library as a script author meets it: mod.ts's JSDoc examples and the
// README's snippets run as written, in child `deno run` processes importing
// "@fello/agent" with the permissions the docs name (and the scripted server
// where a model is needed).
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { contentText, startScriptedServer } from "./support/scripted_server.ts";
import { decoded } from "./support/fello_cli.ts";
import { isAlive, waitForPid, waitUntilGone } from "./support/processes.ts";
import { STEP_RUNNER } from "./support/step_runner.ts";
import { withWorkspace, writeFiles } from "./support/workspace.ts";

const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));

/** What a child script printed, and how it ended. */
interface ChildRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Writes `source` as a script in a temporary folder and runs it with exactly `flags` (no
 * prompt), as a user's script importing "@fello/agent". The 60 s signal only
 * proves that it ends on its own.
 */
async function runScript(
  source: string,
  flags: string[],
  args: string[] = [],
): Promise<ChildRun> {
  // The script lives outside the workspace, so searches there do not find it.
  const folder = await Deno.makeTempDir({ prefix: "fello_script_" });
  const script = join(folder, "script.ts");
  await Deno.writeTextFile(script, source);
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        `--config=${CONFIG}`,
        ...flags,
        script,
        ...args,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    return decoded(output);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

/** The last stdout line of a child, parsed as JSON. */
function lastJson(run: ChildRun): Record<string, unknown> {
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

const EVERY_TOOL_SCRIPT = `
import { createTools, outlineSymbols } from "@fello/agent";

const [cwd] = Deno.args;
const tools = createTools({ cwd, permissionMode: "allow" });
const read = await tools.ReadFile.execute({ path: "a.txt", line: 2, limit: 1 });
const written = await tools.WriteFile.execute({ path: "notes/todo.md", content: "- ship it\\n" });
const edited = await tools.EditFile.execute({ path: "c.txt", oldText: "colour", newText: "color", replaceAll: true });
const echo = await tools.Shell.execute({ command: "echo", args: ["ready"], timeoutSeconds: 60 });
const failed = await tools.Shell.execute({ command: "exit 3" });
const background = await tools.Shell.execute({ command: "sleep 3 & echo done" });
const plan = await tools.Plan.execute({
  entries: [
    { content: "Read the failing test", priority: "high", status: "in_progress" },
    { content: "Fix the parser", priority: "high", status: "pending" },
  ],
});
const found = await tools.search.execute({ pattern: "w.rld", regex: true });
const outline = await tools.file_outline.execute({ path: "m.ts" });
const symbols = await outlineSymbols("m.ts", { cwd });
console.log(JSON.stringify({ read, written, edited, echo, failed, background, plan, found, outline, symbols }));
`;

Deno.test("a script importing @fello/agent runs every tool as the JSDoc examples show and exits on its own", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, {
      "a.txt": "hello\nworld\n",
      "c.txt": "colour and colour\n",
      "m.ts": "export function f() {}\nexport class C {\n  m() {}\n}\n",
    });
    const out = lastJson(
      await runScript(EVERY_TOOL_SCRIPT, ["-A"], [ws]),
    );
    assert.deepEqual(out.read, {
      path: "a.txt",
      content: "world\n",
      startLine: 2,
      endLine: 2,
      totalLines: 2,
    });
    assert.deepEqual(out.written, {
      path: join("notes", "todo.md"),
      created: true,
      bytes: 10,
    });
    assert.equal((out.edited as { replacements: number }).replacements, 2);
    assert.equal(
      await Deno.readTextFile(join(ws, "c.txt")),
      "color and color\n",
    );
    assert.deepEqual(out.echo, {
      exitCode: 0,
      signal: null,
      timedOut: false,
      truncated: false,
      sandboxed: false,
      output: "ready\n",
    });
    assert.equal((out.failed as { exitCode: number }).exitCode, 3);
    assert.equal((out.background as { output: string }).output, "done\n");
    assert.deepEqual((out.plan as { counts: unknown }).counts, {
      pending: 1,
      in_progress: 1,
      completed: 0,
    });
    assert.deepEqual((out.found as { matches: unknown }).matches, [
      { path: "a.txt", line: 2, text: "world" },
    ]);
    assert.match(
      out.outline as string,
      /^File: m\.ts\nLanguage: TypeScript\nTotal lines: 4\n─── Symbols ───\nfunction f \(line 1\)\nclass C \(lines 2-4\)\n {4}method m \(line 3\)/,
    );
    const symbols = out.symbols as { language: string; totalLines: number };
    assert.equal(symbols.language, "TypeScript");
    assert.equal(symbols.totalLines, 4);
  });
});

const AGENT_SCRIPT = `
import { createAgent } from "@fello/agent";

const [baseURL, cwd] = Deno.args;
const asked = [];
const agent = createAgent({
  baseURL,
  apiKey: "sk-test",
  model: "qwen3",
  cwd,
  permissionMode: "ask",
  approve: (request) => {
    asked.push(request);
    return request.action !== "execute";
  },
  instructions: "Answer in French.",
  maxSteps: 50,
  contextTokens: 32_768,
  visionModel: "qwen2.5vl",
});
const result = await agent.run("Fix the failing test", { signal: AbortSignal.timeout(600_000) });
const events = [];
for await (const event of agent.stream("Now run the whole suite")) events.push(event.type);
const saved = JSON.stringify(agent.history);
agent.reset();
const later = createAgent({ baseURL, model: "qwen3", history: JSON.parse(saved) });
console.log(JSON.stringify({
  result,
  events,
  asked,
  saved: JSON.parse(saved).length,
  afterReset: agent.history.length,
  later: later.history.length,
}));
`;

Deno.test("README: createAgent's snippet runs against an OpenAI-compatible server and the script exits on its own", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, { "a.txt": "hello\n" });
    await using server = startScriptedServer([{
      match: "Fix the failing test",
      replies: [
        {
          text: "Reading.",
          toolCalls: [{ name: "ReadFile", arguments: { path: "a.txt" } }],
        },
        { text: "Done." },
        {
          toolCalls: [{ name: "Shell", arguments: { command: "deno test" } }],
        },
        { text: "Refused." },
      ],
    }]);
    const out = lastJson(
      await runScript(AGENT_SCRIPT, [
        `--allow-net=127.0.0.1`,
        "--allow-sys=hostname",
        `--allow-read=${ws}`,
      ], [server.baseURL, ws]),
    );
    const result = out.result as Record<string, unknown>;
    assert.equal(result.text, "Done.");
    assert.equal(result.finishReason, "stop");
    assert.equal(result.steps, 2);
    assert.deepEqual(
      (result.toolCalls as {
        toolName: string;
        isError: boolean;
        modelText: string;
      }[])
        .map((c) => [c.toolName, c.isError, c.modelText]),
      [["ReadFile", false, "1\thello"]],
    );
    assert.deepEqual(out.events, [
      "tool-call",
      "tool-error",
      "step-finish",
      "text-delta",
      "text-delta",
      "text-delta",
      "step-finish",
      "finish",
    ]);
    const [asked] = out.asked as Record<string, unknown>[];
    assert.equal(asked.action, "execute");
    assert.equal(asked.command, "deno test");
    assert.equal(typeof asked.toolCallId, "string");
    assert.deepEqual([out.saved, out.afterReset, out.later], [8, 0, 8]);
    const first = server.requests[0];
    assert.equal(first.body.model, "qwen3");
    assert.equal(first.headers.get("authorization"), "Bearer sk-test");
    assert.match(
      contentText(first.body.messages[0].content),
      /Answer in French\./,
    );
  });
});

const PERMISSION_SCRIPT = `
import { createTools, ToolError } from "@fello/agent";

const [which, cwd] = Deno.args;
const tools = createTools({ cwd, permissionMode: "allow" });
${STEP_RUNNER}
if (which === "read") {
  await run("granted", () => tools.ReadFile.execute({ path: "a.txt" }));
  await run("denied", () => tools.ReadFile.execute({ path: "b.txt" }));
} else if (which === "run") {
  await run("granted", () => tools.Shell.execute({ command: "echo", args: ["ready"] }));
  await run("denied", () => tools.Shell.execute({ command: "echo ready" }));
} else {
  await run("granted", () => tools.Plan.execute({ entries: [] }));
}
console.log(JSON.stringify(out));
`;

/** What PERMISSION_SCRIPT's `which` steps gave in `ws` under `flags`. */
async function permissionSteps<T>(
  which: string,
  ws: string,
  flags: string[],
): Promise<Record<string, { ok?: T; error?: string; toolError?: boolean }>> {
  return lastJson(
    await runScript(PERMISSION_SCRIPT, flags, [which, ws]),
  ) as Record<string, { ok?: T; error?: string; toolError?: boolean }>;
}

Deno.test("permission notes hold: ReadFile needs --allow-read for the file, Shell --allow-run for its executable, Plan nothing", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, { "a.txt": "hello\n", "b.txt": "bee\n" });
    const read = await permissionSteps<{ content: string }>("read", ws, [
      `--allow-read=${join(ws, "a.txt")}`,
    ]);
    assert.equal(read.granted.ok?.content, "hello\n");
    assert.equal(read.denied.toolError, true);
    assert.ok(
      read.denied.error?.includes(`--allow-read=${join(ws, "b.txt")}`),
      read.denied.error,
    );
    const run = await permissionSteps<{ output: string }>("run", ws, [
      "--allow-run=echo",
    ]);
    assert.equal(run.granted.ok?.output, "ready\n");
    assert.equal(run.denied.toolError, true);
    assert.match(run.denied.error ?? "", /--allow-run=sh/);
    const plan = lastJson(
      await runScript(PERMISSION_SCRIPT, [], ["plan", ws]),
    );
    assert.deepEqual(plan, {
      granted: {
        ok: {
          entries: [],
          counts: { pending: 0, in_progress: 0, completed: 0 },
        },
      },
    });
  });
});

Deno.test("WriteFile under --allow-write for the folder alone writes the file, or names the --allow-read=<folder> it needs", async () => {
  await withWorkspace(async (ws) => {
    const source = `
import { createTools, ToolError } from "@fello/agent";
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
try {
  console.log(JSON.stringify({ ok: await tools.WriteFile.execute({ path: "a.txt", content: "x" }) }));
} catch (error) {
  console.log(JSON.stringify({ error: error.message, toolError: error instanceof ToolError }));
}
`;
    const out = lastJson(
      await runScript(source, [`--allow-write=${ws}`], [ws]),
    );
    if (out.error !== undefined) {
      const message = String(out.error);
      assert.equal(out.toolError, true);
      assert.doesNotMatch(
        message,
        /fello-tmp/,
        "names a temp file the user never gave",
      );
      assert.ok(message.includes(`--allow-read=${ws}`), message);
    } else {
      assert.deepEqual(out.ok, { path: "a.txt", created: true, bytes: 1 });
    }
  });
});

Deno.test("createAgent() without --allow-net says Deno denies the network, not that the endpoint answered badly", async () => {
  {
    await using server = startScriptedServer([
      { match: "Hello", replies: [{ text: "hi" }] },
    ]);
    const source = `
import { createAgent } from "@fello/agent";
const agent = createAgent({ baseURL: Deno.args[0], model: "m", maxRetries: 0 });
try {
  await agent.run("Hello");
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  console.log(JSON.stringify({ error: error.message }));
}
`;
    const out = lastJson(
      await runScript(source, ["--allow-sys=hostname"], [server.baseURL]),
    );
    const message = String(out.error);
    assert.match(message, /--allow-net/);
    assert.doesNotMatch(
      message,
      /unusable answer|serves OpenAI-compatible|try again/,
    );
    assert.equal(server.requests.length, 0);
  }
});

Deno.test("Shell under --allow-run=sh: Deno.exit() kills the running command's whole process group", async () => {
  await withWorkspace(async (ws) => {
    const source = `
import { createTools } from "@fello/agent";
const [cwd] = Deno.args;
const tools = createTools({ cwd, permissionMode: "allow" });
tools.Shell.execute({ command: "sleep 60 & echo $! > pid.tmp && mv pid.tmp pid; wait" });
while (true) {
  try {
    Deno.statSync(cwd + "/pid");
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
Deno.exit(0);
`;
    let pid: number | undefined;
    try {
      const run = await runScript(source, [
        "--allow-run=sh",
        `--allow-read=${ws}`,
      ], [
        ws,
      ]);
      assert.equal(run.code, 0, run.stderr);
      pid = await waitForPid(join(ws, "pid"));
      assert.ok(await waitUntilGone(pid), `sleep ${pid} outlived the script`);
    } finally {
      if (pid !== undefined && isAlive(pid)) Deno.kill(pid, "SIGKILL");
    }
  });
});
