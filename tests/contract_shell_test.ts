// Black-box contract tests for issue 3 (Shell and Plan), written from the issue text alone:
// they use only the public API of mod.ts, exactly as the issue spells it. Hang checks carry
// generous time bounds; nothing else is timed.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, ToolError } from "../mod.ts";
import type { PlanEntry } from "../mod.ts";
import { recorder, rejectsTool } from "./support/tool_asserts.ts";
import { withDirs } from "./support/workspace.ts";

type Answer = boolean | "always";

const ROOT_DIR = new URL("..", import.meta.url).pathname;
const MOD_URL = new URL("../mod.ts", import.meta.url).href;
// The child script lives in a temp folder: point it at the package's import map.
const CONFIG = join(ROOT_DIR, "deno.json");

/** Whether `pid` is still a live process (a zombie counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(
      stat.lastIndexOf(")") + 2,
      stat.lastIndexOf(")") + 3,
    );
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

async function readPids(file: string): Promise<number[]> {
  try {
    return (await Deno.readTextFile(file)).split(/\s+/).filter(Boolean).map(
      Number,
    );
  } catch {
    return [];
  }
}

/** Asserts every pid is gone within a generous bound; kills our own leftovers either way. */
async function assertAllGone(pids: number[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (pids.some(alive) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const survivors = pids.filter(alive);
  for (const pid of survivors) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* already gone */ }
  }
  assert.deepEqual(survivors, [], "no process of the group survives");
}

async function waitForPids(file: string, count: number): Promise<number[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const pids = await readPids(file);
    if (pids.length >= count || Date.now() > deadline) return pids;
    await new Promise((r) => setTimeout(r, 25));
  }
}

// A tree: the shell, a background sleep, a nested shell and its two sleeps; every pid recorded.
const TREE = `echo $$ >> pids; sleep 100 & echo $! >> pids; ` +
  `sh -c 'echo $$ >> pids; sleep 100 & echo $! >> pids; sleep 100'`;

// ---------------------------------------------------------------------------------------------
// Shell

Deno.test("Shell without args runs through sh -c: pipes and && work; fields have their types", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const r = await tools.Shell.execute({
      command: "echo hello | tr a-z A-Z && echo ok",
    });
    assert.equal(r.output, "HELLO\nok\n");
    assert.equal(r.exitCode, 0);
    assert.equal(r.signal, null);
    assert.equal(r.timedOut, false);
    assert.equal(r.truncated, false);
    assert.equal(typeof tools.Shell.toModelText(r), "string");
  });
});

Deno.test("Shell with args runs the command directly: nothing is interpreted by a shell", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const r = await tools.Shell.execute({
      command: "printf",
      args: ["%s", "a b;c"],
    });
    assert.equal(r.output, "a b;c");
    assert.equal(r.exitCode, 0);
    const quoted = await tools.Shell.execute({
      command: "echo",
      args: ["$HOME", "`id`", "*"],
    });
    assert.equal(quoted.output, "$HOME `id` *\n");
  });
});

Deno.test("Shell: a non-zero exit is a result, not an error", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const r = await tools.Shell.execute({
      command: "echo failing >&2; exit 3",
    });
    assert.equal(r.exitCode, 3);
    assert.equal(r.signal, null);
    assert.equal(r.output, "failing\n");
  });
});

Deno.test("Shell: invalid input is a ToolError naming the command", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    await rejectsTool(
      tools.Shell.execute({ command: "echo hi", timeoutSeconds: -1 }),
      "echo hi",
      "timeoutSeconds",
    );
    await rejectsTool(
      tools.Shell.execute({ command: "echo hi", outputByteLimit: 0 }),
      "echo hi",
      "outputByteLimit",
    );
    await rejectsTool(
      tools.Shell.execute({ command: "echo", args: "x" } as never),
      "echo",
      "args",
    );
    await rejectsTool(
      tools.Shell.execute({ command: "echo", env: { A: 1 } } as never),
      "echo",
      "env",
    );
  });
});

Deno.test("Shell: a missing executable with args is a ToolError naming the command", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    await rejectsTool(
      tools.Shell.execute({ command: "no-such-command-zq9", args: ["x"] }),
      "no-such-command-zq9",
    );
  });
});

Deno.test("Shell: cwd is relative to the workspace; env merges over the inherited environment", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.mkdir(join(ws, "packages/a"), { recursive: true });
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const here = await tools.Shell.execute({
      command: "pwd",
      cwd: "packages/a",
    });
    assert.equal(here.output.trim(), join(ws, "packages/a"));
    const env = await tools.Shell.execute({
      command: 'echo "$FOO|$HOME|$PATH"',
      env: { FOO: "1" },
    });
    assert.equal(
      env.output.trim(),
      `1|${Deno.env.get("HOME") ?? ""}|${Deno.env.get("PATH") ?? ""}`,
    );
  });
});

Deno.test("Shell: non-interactive defaults sit under the caller's env", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const show = 'echo "$GIT_TERMINAL_PROMPT $PAGER $GIT_PAGER"';
    assert.equal(
      (await tools.Shell.execute({ command: show })).output,
      "0 cat cat\n",
    );
    const over = await tools.Shell.execute({
      command: show,
      env: { PAGER: "less", GIT_TERMINAL_PROMPT: "1" },
    });
    assert.equal(over.output, "1 less cat\n");
  });
});

Deno.test("Shell: output interleaves stdout and stderr in arrival order", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const r = await tools.Shell.execute({
      command: "echo out1; sleep 0.2; echo err1 >&2; sleep 0.2; echo out2",
    });
    assert.equal(r.output, "out1\nerr1\nout2\n");
  });
});

Deno.test("Shell: stdin is closed, so read gets end of input at once", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    // The timeout only bounds a hang; the read must end long before it.
    const r = await tools.Shell.execute({
      command: 'read x; echo "read-exit=$? [$x]"',
      timeoutSeconds: 30,
    });
    assert.equal(r.timedOut, false);
    assert.match(r.output, /^read-exit=[1-9]\d* \[\]\n$/);
  });
});

Deno.test("Shell: a background child holding the pipes does not hang the call (sleep 60 & echo done)", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const started = Date.now();
    const r = await tools.Shell.execute({
      command: "sleep 60 & echo $! > bg.pid; echo done",
      timeoutSeconds: 45,
    });
    const elapsed = Date.now() - started;
    const pids = await readPids(join(ws, "bg.pid"));
    for (const pid of pids) {
      try {
        Deno.kill(pid, "SIGKILL"); // our own leftover sleep
      } catch { /* already gone */ }
    }
    assert.equal(r.timedOut, false);
    assert.equal(r.exitCode, 0);
    assert.match(r.output, /done\n/);
    assert.ok(
      elapsed < 20_000,
      `returned after ${elapsed} ms (about 2 s expected)`,
    );
  });
});

Deno.test("Shell: a timeout kills the whole process tree and keeps the output so far", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const r = await tools.Shell.execute({
      command: `echo started; ${TREE}`,
      timeoutSeconds: 2,
    });
    const pids = await readPids(join(ws, "pids"));
    assert.ok(pids.length >= 2, `pids recorded: ${pids}`);
    await assertAllGone(pids);
    assert.equal(r.timedOut, true);
    assert.equal(r.exitCode, null);
    assert.equal(typeof r.signal, "string");
    assert.match(r.output, /^started\n/);
    const shown = tools.Shell.toModelText(r);
    assert.match(shown, /timed out|timeout/i);
    assert.match(shown, /longer|timeoutSeconds/i);
  });
});

Deno.test("Shell: a process tree that ignores SIGTERM is SIGKILLed after the grace", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const started = Date.now();
    const r = await tools.Shell.execute({
      command: `trap '' TERM; ${TREE}`,
      timeoutSeconds: 1,
    });
    const elapsed = Date.now() - started;
    const pids = await readPids(join(ws, "pids"));
    await assertAllGone(pids);
    assert.equal(r.timedOut, true);
    assert.equal(r.exitCode, null);
    assert.equal(r.signal, "SIGKILL");
    assert.ok(
      elapsed < 15_000,
      `took ${elapsed} ms (timeout 1 s + grace at most 2 s)`,
    );
  });
});

Deno.test("Shell: aborting the signal kills the whole process tree", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const controller = new AbortController();
    const running = tools.Shell.execute({ command: TREE }, {
      signal: controller.signal,
    });
    const pids = await waitForPids(join(ws, "pids"), 4);
    controller.abort();
    let outcome: unknown;
    try {
      outcome = await running;
    } catch (error) {
      assert.ok(
        error instanceof ToolError,
        `only a ToolError may escape: ${error}`,
      );
      outcome = error;
    }
    assert.ok(pids.length >= 4, `pids recorded: ${pids}`);
    await assertAllGone(pids);
    if (!(outcome instanceof ToolError)) {
      const r = outcome as { exitCode: number | null; timedOut: boolean };
      assert.equal(r.exitCode, null);
    }
  });
});

Deno.test("Shell: output is bounded to head + marker + tail, truncated, full log saved", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const full = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join(
      "",
    );
    const limit = 4096;
    const r = await tools.Shell.execute({
      command: "seq 1 100000",
      outputByteLimit: limit,
    });
    assert.equal(r.truncated, true);
    assert.equal(r.exitCode, 0);
    assert.ok(
      r.output.startsWith("1\n2\n3\n"),
      "no header before the first bytes",
    );
    assert.ok(r.output.endsWith("99999\n100000\n"), "the tail is kept");
    const bytes = new TextEncoder().encode(r.output).length;
    assert.ok(bytes <= limit + 200, `output is ${bytes} bytes`);
    assert.ok(bytes >= limit / 2, `output is only ${bytes} bytes`);
    const middle = r.output.split("\n").filter((line) =>
      !/^\d+$/.test(line) && line !== ""
    );
    assert.equal(
      middle.length,
      1,
      `one marker line: ${JSON.stringify(middle)}`,
    );
    assert.match(middle[0], /\d[\d,]* ?bytes/i);
    assert.match(middle[0], /\d[\d,]* ?lines/i);
    assert.equal(typeof r.logPath, "string");
    assert.ok(
      !r.output.includes(r.logPath!),
      "notes such as the log path are not in output",
    );
    assert.equal(await Deno.readTextFile(r.logPath!), full);
    const tail = await tools.ReadFile.execute({
      path: r.logPath!,
      line: 99_999,
      limit: 2,
    });
    assert.equal(tail.content.replace(/\n$/, ""), "99999\n100000");
    await Deno.remove(r.logPath!).catch(() => {});
  });
});

Deno.test("Shell: even a tiny outputByteLimit starts output with the command's first bytes", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    for (
      const [command, limit, first] of [["seq 1 1000", 10, "1"], [
        "printf abcd",
        3,
        "a",
      ], ["yes é | head -n 9", 5, "é"]] as const
    ) {
      const r = await tools.Shell.execute({ command, outputByteLimit: limit });
      assert.equal(r.truncated, true, command);
      assert.ok(
        r.output.startsWith(first),
        `${command} (${limit}): ${JSON.stringify(r.output)}`,
      );
      assert.ok(!r.output.includes("\uFFFD"), JSON.stringify(r.output));
      assert.match(r.output, /\d+ bytes/);
      if (r.logPath) await Deno.remove(r.logPath).catch(() => {});
    }
  });
});

Deno.test("Shell: output never cuts a UTF-8 character, replaces invalid UTF-8 and strips ANSI for the model", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const cut = await tools.Shell.execute({
      command: "yes 'é€' | head -n 20000",
      outputByteLimit: 1001,
    });
    assert.equal(cut.truncated, true);
    assert.ok(!cut.output.includes("\uFFFD"), "no character was cut");
    assert.ok(cut.output.startsWith("é€\n"));
    assert.ok(cut.output.endsWith("é€\n"));
    if (cut.logPath) await Deno.remove(cut.logPath).catch(() => {});
    const bad = await tools.Shell.execute({ command: "printf 'a\\377b\\n'" });
    assert.equal(bad.output, "a\uFFFDb\n");
    const ansi = await tools.Shell.execute({
      command: "printf '\\033[31mred\\033[0m plain\\n'",
    });
    const shown = tools.Shell.toModelText(ansi);
    assert.ok(!shown.includes("\x1b"), JSON.stringify(shown));
    assert.ok(shown.includes("red plain"), shown);
  });
});

Deno.test("Shell permissions under sandbox off: asked in ask and acceptEdits, refused in readOnly, allowed in allow", async () => {
  await withDirs(async ({ ws }) => {
    for (const mode of ["ask", "acceptEdits"] as const) {
      const no = recorder(false);
      await rejectsTool(
        createTools({
          cwd: ws,
          permissionMode: mode,
          approve: no.approve,
          sandbox: "off",
        })
          .Shell.execute({ command: "echo hi" }),
        "echo hi",
      );
      assert.equal(no.calls.length, 1, mode);
      const request = no.calls[0];
      assert.equal(request.tool, "Shell");
      assert.equal(request.action, "execute");
      assert.ok(request.command?.includes("echo hi"), request.command);
      assert.equal(request.outsideWorkspace, false);
      assert.equal(typeof request.description, "string");
      await rejectsTool(
        createTools({ cwd: ws, permissionMode: mode, sandbox: "off" }).Shell
          .execute({
            command: "echo hi",
          }),
      );
      const yes = recorder(true);
      const r = await createTools({
        cwd: ws,
        permissionMode: mode,
        approve: yes.approve,
        sandbox: "off",
      }).Shell.execute({
        command: "echo hi",
      });
      assert.equal(r.output, "hi\n");
      assert.equal(yes.calls.length, 1);
    }
    const ro = recorder(true);
    await rejectsTool(
      createTools({
        cwd: ws,
        permissionMode: "readOnly",
        approve: ro.approve,
        sandbox: "off",
      })
        .Shell.execute({ command: "echo hi" }),
      "echo hi",
    );
    assert.equal(ro.calls.length, 0, "readOnly refuses without asking");
    const allow = recorder(false);
    const r = await createTools({
      cwd: ws,
      permissionMode: "allow",
      approve: allow.approve,
    }).Shell.execute({
      command: "echo hi",
    });
    assert.equal(r.output, "hi\n");
    assert.equal(allow.calls.length, 0);
  });
});

Deno.test('Shell "always" remembers the executable plus its first argument, never all commands', async () => {
  await withDirs(async ({ ws }) => {
    const rec = recorder("always");
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await tools.Shell.execute({ command: "echo", args: ["one", "x"] });
    assert.equal(rec.calls.length, 1);
    await tools.Shell.execute({ command: "echo", args: ["one", "y"] });
    assert.equal(rec.calls.length, 1, "echo one is remembered");
    await tools.Shell.execute({ command: "echo", args: ["two"] });
    assert.equal(rec.calls.length, 2, "another first argument asks again");
    await tools.Shell.execute({ command: "printf", args: ["one"] });
    assert.equal(rec.calls.length, 3, "another executable asks again");
  });
});

Deno.test('Shell "always" for a shell command line does not cover chained commands', async () => {
  await withDirs(async ({ ws }) => {
    const rec = recorder("always");
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await tools.Shell.execute({ command: "echo one" });
    assert.equal(rec.calls.length, 1);
    await tools.Shell.execute({ command: "echo one more" });
    assert.equal(rec.calls.length, 1, "echo one is remembered");
    let asked = rec.calls.length;
    for (
      const command of [
        "echo one; echo two",
        "echo one && echo two",
        "echo one $(echo two)",
        "echo one\necho two",
      ]
    ) {
      await tools.Shell.execute({ command });
      assert.equal(
        rec.calls.length,
        ++asked,
        `${JSON.stringify(command)} must ask`,
      );
    }
  });
});

Deno.test("Shell: a cwd outside the workspace is an outside request", async () => {
  await withDirs(async ({ ws, out }) => {
    const rec = recorder(false);
    const tools = createTools({
      cwd: ws,
      permissionMode: "acceptEdits",
      approve: rec.approve,
    });
    await rejectsTool(tools.Shell.execute({ command: "pwd", cwd: out }));
    await rejectsTool(tools.Shell.execute({ command: "pwd", cwd: "../out" }));
    assert.equal(rec.calls.length, 2);
    assert.ok(
      rec.calls.every((c) =>
        c.outsideWorkspace === true && c.action === "execute"
      ),
    );
  });
});

Deno.test("Shell: Deno's --allow-run gate is checked before spawning (sh without args)", async () => {
  await withDirs(async ({ root, ws }) => {
    const script = join(root, "child.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools, ToolError } from ${JSON.stringify(MOD_URL)};
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const report = {};
try {
  await tools.Shell.execute({ command: "echo via-sh > made.txt" });
  report.sh = "ran";
} catch (error) {
  report.sh = { toolError: error instanceof ToolError, message: String(error?.message) };
}
report.printf = (await tools.Shell.execute({ command: "printf", args: ["%s", "direct"] })).output;
console.log(JSON.stringify(report));
`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--config",
        CONFIG,
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-run=printf",
        script,
        ws,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const { code, stdout, stderr } = await child.output();
    clearTimeout(timer);
    const decoder = new TextDecoder();
    assert.equal(code, 0, decoder.decode(stderr));
    const report = JSON.parse(
      decoder.decode(stdout).trim().split("\n").at(-1)!,
    );
    assert.equal(report.sh.toolError, true, JSON.stringify(report));
    assert.match(report.sh.message, /--allow-run/);
    assert.match(report.sh.message, /\bsh\b/);
    assert.equal(report.printf, "direct");
    await assert.rejects(Deno.stat(join(ws, "made.txt")), Deno.errors.NotFound);
  });
});

// ---------------------------------------------------------------------------------------------
// Plan

const ENTRIES: PlanEntry[] = [
  { content: "Read the failing test", priority: "high", status: "completed" },
  { content: "Fix the parser", priority: "medium", status: "in_progress" },
  { content: "Update the docs", priority: "low", status: "pending" },
];

Deno.test("Plan replaces the whole plan each call; tools.plan and onPlan follow it; empty clears", async () => {
  await withDirs(async ({ ws }) => {
    const seen: PlanEntry[][] = [];
    const tools = createTools({
      cwd: ws,
      onPlan: (entries) => seen.push(structuredClone(entries)),
    });
    assert.deepEqual([...tools.plan], []);
    const r = await tools.Plan.execute({ entries: ENTRIES });
    assert.deepEqual(r.entries, ENTRIES);
    assert.deepEqual([...tools.plan], ENTRIES);
    const shown = tools.Plan.toModelText(r);
    for (const entry of ENTRIES) {
      assert.ok(shown.includes(entry.content), shown);
    }
    const lineOf = (text: string) =>
      shown.split("\n").find((l) => l.includes(text))!;
    assert.notEqual(
      lineOf("Read the failing test").replace("Read the failing test", ""),
      lineOf("Update the docs").replace("Update the docs", ""),
      "the checklist marks completed and pending entries differently",
    );
    const next = [{
      content: "Only step",
      priority: "high" as const,
      status: "pending" as const,
    }];
    assert.deepEqual(
      (await tools.Plan.execute({ entries: next })).entries,
      next,
    );
    assert.deepEqual([...tools.plan], next, "replaced, not merged");
    const cleared = await tools.Plan.execute({ entries: [] });
    assert.deepEqual(cleared.entries, []);
    assert.deepEqual([...tools.plan], []);
    assert.deepEqual(seen, [ENTRIES, next, []]);
  });
});

Deno.test("Plan: more than one in_progress entry and a bad enum value are ToolErrors", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws });
    await tools.Plan.execute({ entries: ENTRIES });
    await rejectsTool(
      tools.Plan.execute({
        entries: [
          { content: "a", priority: "high", status: "in_progress" },
          { content: "b", priority: "low", status: "in_progress" },
        ],
      }),
      "in_progress",
    );
    await rejectsTool(
      tools.Plan.execute(
        {
          entries: [{ content: "a", priority: "urgent", status: "pending" }],
        } as never,
      ),
      "high",
      "medium",
      "low",
    );
    await rejectsTool(
      tools.Plan.execute(
        {
          entries: [{ content: "a", priority: "high", status: "doing" }],
        } as never,
      ),
      "pending",
      "in_progress",
      "completed",
    );
    assert.deepEqual(
      [...tools.plan],
      ENTRIES,
      "a refused call leaves the plan as it was",
    );
  });
});
