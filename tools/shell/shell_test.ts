import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, type CreateToolsOptions } from "../create_tools.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { PermissionRequest } from "../types.ts";
import { withDirs, withWorkspace } from "../../tests/support/workspace.ts";
import {
  assertAllGone,
  isAlive,
  readPids,
  waitForPids,
} from "../../tests/support/processes.ts";
import {
  answering,
  recorder,
  rejectsTool,
} from "../../tests/support/tool_asserts.ts";
import { exists } from "../../internal/exists.ts";
import { childPeak, MB, MOD } from "../../tests/support/child_peak.ts";

// A tree: the shell, a background sleep, a nested shell and its two sleeps; every pid recorded.
const TREE = `echo $$ >> pids; sleep 100 & echo $! >> pids; ` +
  `sh -c 'echo $$ >> pids; sleep 100 & echo $! >> pids; sleep 100'`;

// Today's Shell, without the OS sandbox (shell_sandbox_test.ts covers it).
function toolsIn(dir: string, options: CreateToolsOptions = {}) {
  return createTools({
    cwd: dir,
    permissionMode: "allow",
    sandbox: "off",
    ...options,
  });
}

async function waitForFile(path: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    try {
      await Deno.stat(path);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  throw new Error(`${path} never appeared`);
}

function pidsIn(output: string): number[] {
  return output.match(/^\d+$/gm)?.map(Number) ?? [];
}

// Cleanup for the test's own processes, should an assertion fail first.
function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

Deno.test("Shell runs a string through sh -c, so pipes and && work", async () => {
  await withWorkspace(async (dir) => {
    const result = await toolsIn(dir).Shell.execute({
      command: "printf 'a\\nb\\n' | wc -l && echo ok",
    });
    assert.equal(result.exitCode, 0);
    assert.equal(result.output.replace(/ +/g, ""), "2\nok\n");
  });
});

Deno.test("Shell with args runs the executable directly, with no shell", async () => {
  await withWorkspace(async (dir) => {
    const result = await toolsIn(dir).Shell.execute({
      command: "printf",
      args: ["%s", "a b;c $HOME `id`"],
    });
    assert.equal(result.output, "a b;c $HOME `id`");
  });
});

Deno.test("Shell returns a non-zero exit as a result", async () => {
  await withWorkspace(async (dir) => {
    const tools = toolsIn(dir);
    const result = await tools.Shell.execute({
      command: "echo failing; exit 3",
    });
    assert.deepEqual(result, {
      exitCode: 3,
      signal: null,
      timedOut: false,
      truncated: false,
      output: "failing\n",
      sandboxed: false,
    });
    assert.match(
      tools.Shell.toModelText(result),
      /^Exit code 3\.\nOutput:\nfailing\n$/,
    );
  });
});

Deno.test("Shell interleaves stdout and stderr in arrival order", async () => {
  await withWorkspace(async (dir) => {
    const result = await toolsIn(dir).Shell.execute({
      command: "echo 1; sleep 0.25; echo 2 >&2; sleep 0.25; echo 3",
    });
    assert.equal(result.output, "1\n2\n3\n");
  });
});

Deno.test("Shell runs in cwd with env over non-interactive defaults", async () => {
  await withWorkspace(async (dir) => {
    await Deno.mkdir(join(dir, "sub"));
    const result = await toolsIn(dir).Shell.execute({
      command: 'pwd; echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT $FOO"',
      cwd: "sub",
      env: { FOO: "bar", PAGER: "more" },
    });
    assert.equal(
      result.output,
      `${await Deno.realPath(join(dir, "sub"))}\nmore cat 0 bar\n`,
    );
  });
});

Deno.test("Shell closes stdin, so reading gets end of input at once", async () => {
  await withWorkspace(async (dir) => {
    const result = await toolsIn(dir).Shell.execute({
      command: 'read line; echo "read status $?"; cat; echo end',
      timeoutSeconds: 20, // only a guard: a blocked read would fail the test, not hang it
    });
    assert.equal(result.timedOut, false);
    assert.equal(result.output, "read status 1\nend\n");
  });
});

Deno.test("Shell timeout kills the whole process tree and keeps the output so far", async () => {
  await withWorkspace(async (dir) => {
    const tools = toolsIn(dir);
    let pids: number[] = [];
    try {
      const result = await tools.Shell.execute({
        command:
          "echo $$; sleep 100 & echo $!; sh -c 'echo $$; sleep 100' & sleep 100",
        timeoutSeconds: 1.5,
      });
      pids = pidsIn(result.output);
      assert.equal(pids.length, 3, result.output);
      assert.equal(result.timedOut, true);
      assert.equal(result.exitCode, null);
      assert.equal(result.signal, "SIGTERM");
      assert.deepEqual(pids.filter(isAlive), []);
      assert.match(
        tools.Shell.toModelText(result),
        /Timed out.*longer timeoutSeconds/s,
      );
    } finally {
      killAll(pids);
    }
  });
});

Deno.test("Shell escalates to SIGKILL for a tree that ignores SIGTERM", async () => {
  await withWorkspace(async (dir) => {
    let pids: number[] = [];
    try {
      // A long timeout; the abort comes once SIGTERM is surely ignored.
      const controller = new AbortController();
      const running = toolsIn(dir).Shell.execute(
        {
          command:
            "trap '' TERM; echo $$; sleep 100 & echo $!; touch started; wait",
          timeoutSeconds: 60,
        },
        { signal: controller.signal },
      );
      await waitForFile(join(dir, "started"));
      const started = Date.now();
      controller.abort();
      const result = await running;
      pids = pidsIn(result.output);
      assert.equal(pids.length, 2, result.output);
      assert.equal(result.signal, "SIGKILL");
      assert.equal(result.aborted, true);
      assert.deepEqual(pids.filter(isAlive), []);
      assert.ok(Date.now() - started < 15_000, "bounded: grace is at most 2 s");
    } finally {
      killAll(pids);
    }
  });
});

Deno.test("Shell abort kills the process tree and marks the result aborted", async () => {
  await withWorkspace(async (dir) => {
    const controller = new AbortController();
    let pids: number[] = [];
    try {
      const running = toolsIn(dir).Shell.execute(
        {
          command: "sleep 100 & echo $!; echo ready; touch started; sleep 100",
        },
        { signal: controller.signal },
      );
      await waitForFile(join(dir, "started"));
      controller.abort();
      const result = await running;
      pids = pidsIn(result.output);
      assert.equal(result.aborted, true);
      assert.equal(result.timedOut, false);
      assert.match(result.output, /ready/);
      assert.equal(pids.length, 1);
      assert.deepEqual(pids.filter(isAlive), []);
    } finally {
      killAll(pids);
    }
  });
});

Deno.test("Shell returns soon after the shell exits while a background child holds the pipes", async () => {
  await withWorkspace(async (dir) => {
    let pids: number[] = [];
    try {
      const started = Date.now();
      const result = await toolsIn(dir).Shell.execute({
        command: "sleep 60 & echo $!; echo done",
      });
      pids = pidsIn(result.output);
      assert.match(result.output, /done\n$/);
      assert.equal(result.exitCode, 0);
      assert.ok(
        Date.now() - started < 20_000,
        "returned long before the 60 s child",
      );
    } finally {
      killAll(pids);
    }
  });
});

Deno.test("Shell bounds output to head and tail and saves the full output to a log", async () => {
  await withWorkspace(async (dir) => {
    const tools = toolsIn(dir);
    const result = await tools.Shell.execute({
      command: "seq 1 100000",
      outputByteLimit: 4096,
    });
    try {
      const full = Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join(
        "",
      );
      assert.equal(result.truncated, true);
      assert.ok(
        result.output.startsWith("1\n2\n3\n"),
        "starts with the first bytes",
      );
      assert.ok(result.output.endsWith("99999\n100000\n"));
      assert.ok(new TextEncoder().encode(result.output).length <= 4096);
      const match = result.output.match(
        /\n\[\.\.\. (\d+) bytes \((\d+) lines\) omitted \.\.\.\]\n/,
      );
      assert.ok(match);
      const [head, tail] = result.output.split(match[0]);
      assert.equal(
        Number(match[1]),
        full.length - head.length - 1 - tail.length,
      );
      assert.equal(
        Number(match[2]),
        100000 - pidsIn(head).length - pidsIn(tail).length,
      );
      assert.equal(await Deno.readTextFile(result.logPath!), full);
      assert.match(
        tools.Shell.toModelText(result),
        new RegExp(`full output is in "${result.logPath}"`),
      );
    } finally {
      if (result.logPath) await Deno.remove(result.logPath);
    }
  });
});

Deno.test("Shell strips ANSI escapes and replaces invalid UTF-8", async () => {
  await withWorkspace(async (dir) => {
    const result = await toolsIn(dir).Shell.execute({
      command: "printf '\\033[1;31mred\\033[0m \\377 ok \\342\\202\\254\\n'",
    });
    assert.equal(result.output, "red \uFFFD ok €\n");
  });
});

Deno.test("Shell reports a missing executable or folder as a ToolError naming the command", async () => {
  await withWorkspace(async (dir) => {
    const tools = toolsIn(dir);
    await assert.rejects(
      tools.Shell.execute({ command: "no-such-tool-xyz", args: ["--help"] }),
      (error: unknown) =>
        error instanceof ToolError &&
        /Cannot run "no-such-tool-xyz --help": no executable/.test(
          error.message,
        ),
    );
    await assert.rejects(
      tools.Shell.execute({ command: "ls", cwd: "missing" }),
      (error: unknown) =>
        error instanceof ToolError &&
        /Cannot run "ls": the working folder ".*missing" does not exist/.test(
          error.message,
        ),
    );
    const notFound = await tools.Shell.execute({ command: "no-such-tool-xyz" });
    assert.equal(notFound.exitCode, 127);
    assert.match(
      tools.Shell.toModelText(notFound),
      /could not find the command/,
    );
  });
});

Deno.test("Shell rejects invalid input with the field named", async () => {
  await withWorkspace(async (dir) => {
    const tools = toolsIn(dir);
    await assert.rejects(
      tools.Shell.execute({ command: "  " }),
      /"command": must not be empty/,
    );
    await assert.rejects(
      tools.Shell.execute({ command: "ls", timeoutSeconds: -1 }),
      /"timeoutSeconds"/,
    );
    await assert.rejects(
      tools.Shell.execute({ command: "ls", env: { "A=B": "1" } }),
      /"env/,
    );
  });
});

Deno.test("Shell asks as execute, remembers always by executable and first argument", async () => {
  await withWorkspace(async (dir) => {
    const asked: PermissionRequest[] = [];
    const tools = toolsIn(dir, {
      permissionMode: "acceptEdits",
      approve: (request) => {
        asked.push(request);
        return "always";
      },
    });
    await tools.Shell.execute({ command: "echo", args: ["a", "one"] });
    await tools.Shell.execute({ command: "echo a two" });
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0], {
      tool: "Shell",
      action: "execute",
      command: "echo a one",
      path: dir,
      outsideWorkspace: false,
      description: 'Run "echo a one"',
    });
    await tools.Shell.execute({ command: "echo b" });
    await tools.Shell.execute({ command: "echo a && echo b" });
    assert.deepEqual(asked.map((request) => request.command), [
      "echo a one",
      "echo b",
      "echo a && echo b",
    ]);
    await tools.Shell.execute({ command: "echo a one", cwd: "/" });
    assert.equal(asked.at(-1)?.outsideWorkspace, true);
    assert.equal(asked.at(-1)?.path, "/");
  });
});

Deno.test("Shell shows the variables it sets in the approval, and 'always' covers only the same ones", async () => {
  await withWorkspace(async (dir) => {
    const asked: PermissionRequest[] = [];
    const tools = toolsIn(dir, {
      permissionMode: "ask",
      approve: (request) => {
        asked.push(request);
        return "always";
      },
    });
    const env = { PATH: "/usr/bin:/bin", GREETING: "hi there" };
    await tools.Shell.execute({ command: "echo $GREETING", env });
    assert.deepEqual(asked[0], {
      tool: "Shell",
      action: "execute",
      command: "echo $GREETING",
      env,
      path: dir,
      outsideWorkspace: false,
      description:
        `Run "echo $GREETING" with GREETING='hi there' PATH=/usr/bin:/bin`,
    });
    // The same variables, in another order: covered.
    await tools.Shell.execute({
      command: "echo $GREETING",
      env: { GREETING: "hi there", PATH: "/usr/bin:/bin" },
    });
    assert.equal(asked.length, 1);
    // Without them, or with another value: asked again.
    await tools.Shell.execute({ command: "echo $GREETING" });
    await tools.Shell.execute({
      command: "echo $GREETING",
      env: { ...env, PATH: `${dir}:/usr/bin:/bin` },
    });
    assert.equal(asked.length, 3);
  });
});

Deno.test("Shell's approval escapes control characters, and 'always' tells them from their escapes", async () => {
  await withWorkspace(async (dir) => {
    const asked: PermissionRequest[] = [];
    const tools = toolsIn(dir, {
      permissionMode: "ask",
      approve: (request) => {
        asked.push(request);
        return "always";
      },
    });
    await tools.Shell.execute({ command: "printf '%s' 'a\\rb'" });
    await tools.Shell.execute({ command: "printf '%s' 'a\rb'" });
    assert.equal(asked.length, 2, "the raw CR was covered by its escape");
    assert.equal(asked[1].command, "printf '%s' 'a\\rb'");
    assert.equal(asked[1].description, `Run "printf '%s' 'a\\rb'"`);
  });
});

Deno.test("Shell is refused in readOnly and without an approver in ask", async () => {
  await withWorkspace(async (dir) => {
    await assert.rejects(
      toolsIn(dir, { permissionMode: "readOnly" }).Shell.execute({
        command: "echo hi",
      }),
      (error: unknown) =>
        error instanceof ToolError && /readOnly/.test(error.message),
    );
    await assert.rejects(
      toolsIn(dir, { permissionMode: "ask" }).Shell.execute({
        command: "echo hi",
      }),
      (error: unknown) =>
        error instanceof ToolError && /approv/.test(error.message),
    );
  });
});

Deno.test({
  name: "Shell reports a missing --allow-run grant as a ToolError",
  permissions: { run: ["sh"], read: true, write: true },
  async fn() {
    await withWorkspace(async (dir) => {
      const tools = toolsIn(dir);
      assert.equal(
        (await tools.Shell.execute({ command: "echo via sh" })).output,
        "via sh\n",
      );
      await assert.rejects(
        tools.Shell.execute({ command: "ls", args: ["-a"] }),
        (error: unknown) =>
          error instanceof ToolError && /--allow-run=ls/.test(error.message),
      );
    });
  },
});

Deno.test("Shell's model text says when the full output could not be saved", () => {
  const tools = createTools();
  const text = tools.Shell.toModelText({
    exitCode: null,
    signal: "SIGKILL",
    timedOut: false,
    truncated: true,
    output: "a\n[... 10 bytes (5 lines) omitted ...]\nb\n",
  });
  assert.equal(
    text,
    "Killed by signal SIGKILL.\nThe output was truncated (see the marker) and the full output could not be saved.\nOutput:\na\n[... 10 bytes (5 lines) omitted ...]\nb\n",
  );
});

// Run in a child Deno: the grant must be narrow there, while checking pids
// through /proc needs full permissions here.
Deno.test("Shell kills the process tree with --allow-run limited to a list with sh", async () => {
  await withWorkspace(async (dir) => {
    const script = `
import { createTools } from ${
      JSON.stringify(import.meta.resolve("../create_tools.ts"))
    };
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const result = await tools.Shell.execute({
  command: "sleep 100 & echo $!; sleep 100 & echo $!; wait",
  timeoutSeconds: 1.5,
});
console.log(JSON.stringify(result));
`;
    const scriptPath = join(dir, "probe.ts");
    await Deno.writeTextFile(scriptPath, script);
    // `deno run`, not `deno eval`: eval grants everything.
    const child = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        `--config=${new URL("../../deno.json", import.meta.url).pathname}`,
        "--allow-run=sh,sleep",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        scriptPath,
        dir,
      ],
      stdin: "null",
    }).output();
    let pids: number[] = [];
    try {
      assert.equal(child.code, 0, new TextDecoder().decode(child.stderr));
      const result = JSON.parse(new TextDecoder().decode(child.stdout));
      pids = pidsIn(result.output);
      assert.equal(pids.length, 2, result.output);
      assert.equal(result.timedOut, true);
      assert.deepEqual(pids.filter(isAlive), []);
    } finally {
      killAll(pids);
    }
  });
});

Deno.test("Shell's model text says when the output log was cut", () => {
  const text = createTools().Shell.toModelText({
    exitCode: 0,
    signal: null,
    timedOut: false,
    truncated: true,
    output: "y\n[... 9 bytes (9 lines) omitted ...]\ny\n",
    logPath: "/tmp/shell-output-1.log",
    logTruncated: true,
  });
  assert.match(
    text,
    /its first 256 MiB are in "\/tmp\/shell-output-1.log" \(the log was cut there/,
  );
});

Deno.test("Shell through sh -c returns output, exitCode, signal, timedOut and truncated with their types", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell with args leaves $HOME, backquotes and * uninterpreted", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell returns exit code 3 and the stderr text as a result, signal null", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
    const r = await tools.Shell.execute({
      command: "echo failing >&2; exit 3",
    });
    assert.equal(r.exitCode, 3);
    assert.equal(r.signal, null);
    assert.equal(r.output, "failing\n");
  });
});

Deno.test("Shell names the command and the field for invalid timeoutSeconds, outputByteLimit, args and env", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell names a missing executable given with args", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
    await rejectsTool(
      tools.Shell.execute({ command: "no-such-command-zq9", args: ["x"] }),
      "no-such-command-zq9",
    );
  });
});

Deno.test("Shell resolves cwd in the workspace and merges env over HOME and PATH", async () => {
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

Deno.test("Shell sets GIT_TERMINAL_PROMPT, PAGER and GIT_PAGER under the caller's env", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell keeps the order of stdout and stderr lines written apart in time", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
    const r = await tools.Shell.execute({
      command: "echo out1; sleep 0.2; echo err1 >&2; sleep 0.2; echo out2",
    });
    assert.equal(r.output, "out1\nerr1\nout2\n");
  });
});

Deno.test("Shell gives read end of input with an empty value", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
    // The timeout only bounds a hang; the read must end long before it.
    const r = await tools.Shell.execute({
      command: 'read x; echo "read-exit=$? [$x]"',
      timeoutSeconds: 30,
    });
    assert.equal(r.timedOut, false);
    assert.match(r.output, /^read-exit=[1-9]\d* \[\]\n$/);
  });
});

Deno.test("Shell ends while a background sleep holds the pipes (sleep 60 & echo done)", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell timeout kills a nested tree, keeps the first output and says to raise timeoutSeconds", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell SIGKILLs a nested tree that ignores SIGTERM after the grace", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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
      elapsed < 30_000,
      `took ${elapsed} ms (timeout 1 s + grace at most 2 s)`,
    );
  });
});

Deno.test("Shell abort kills a nested tree and lets only a ToolError escape", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell bounds seq 1 100000 to head, one marker line and tail, the log holding all of it", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell starts even a tiny outputByteLimit's output with the command's first bytes", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell cuts output between UTF-8 characters, replaces invalid UTF-8 and strips ANSI for the model", async () => {
  await withWorkspace(async (ws) => {
    const tools = toolsIn(ws);
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

Deno.test("Shell with sandbox off is asked in ask and acceptEdits, refused in readOnly, allowed in allow", async () => {
  await withDirs(async ({ ws }) => {
    for (const mode of ["ask", "acceptEdits"] as const) {
      const no = recorder(false);
      await rejectsTool(
        createTools({
          sandbox: "off",
          cwd: ws,
          permissionMode: mode,
          approve: no.approve,
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
        createTools({ sandbox: "off", cwd: ws, permissionMode: mode }).Shell
          .execute({
            command: "echo hi",
          }),
      );
      const yes = recorder(true);
      const r = await createTools({
        sandbox: "off",
        cwd: ws,
        permissionMode: mode,
        approve: yes.approve,
      }).Shell.execute({
        command: "echo hi",
      });
      assert.equal(r.output, "hi\n");
      assert.equal(yes.calls.length, 1);
    }
    const ro = recorder(true);
    await rejectsTool(
      createTools({
        sandbox: "off",
        cwd: ws,
        permissionMode: "readOnly",
        approve: ro.approve,
      })
        .Shell.execute({ command: "echo hi" }),
      "echo hi",
    );
    assert.equal(ro.calls.length, 0, "readOnly refuses without asking");
    const allow = recorder(false);
    const r = await createTools({
      sandbox: "off",
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

Deno.test('Shell "always" for args covers the executable and first argument only', async () => {
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

Deno.test('Shell "always" for a command line covers no chained, substituted or multi-line command', async () => {
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

Deno.test("Shell asks about a cwd outside the workspace as outside", async () => {
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

Deno.test("Shell 'always' for a command does not cover it with a new env, and the approval shows the env", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.mkdir(join(out, "bin"));
    const fake = join(out, "bin/ls");
    await Deno.writeTextFile(fake, `#!/bin/sh\ntouch "${out}/PWNED"\n`);
    await Deno.chmod(fake, 0o755);
    const rec = answering("always", false);
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await tools.Shell.execute({ command: "ls ." });
    const env = { PATH: `${join(out, "bin")}:/usr/bin:/bin` };
    await tools.Shell.execute({ command: "ls .", env }).catch(() => {});
    assert.equal(
      rec.calls.length,
      2,
      "the call with a new env was not asked",
    );
    assert.match(rec.calls[1].description, /PATH/);
    assert.equal(await exists(join(out, "PWNED")), false, "ran unasked");
  });
});

Deno.test("Shell 'always' for an odd command never approves a different launcher line (sh x.sh)", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(join(ws, "x.sh"), "touch collided\n");
    const rec = answering("always", false);
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await assert.rejects(
      tools.Shell.execute({ command: "exact:sh", args: ["x.sh"] }),
      ToolError,
    );
    await tools.Shell.execute({ command: "sh x.sh" }).catch(() => {});
    assert.equal(rec.calls.length, 2, "sh x.sh was not asked");
    assert.equal(await exists(join(ws, "collided")), false);
  });
});

Deno.test("Shell 'always' for `echo ok` covers no chained, substituted, multi-line, launcher or outside-cwd variant", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.symlink(out, join(ws, "link"));
    const rec = answering("always");
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await tools.Shell.execute({ command: "echo ok" });
    const variants = [
      { command: "echo ok; touch p1" },
      { command: "echo ok && touch p2" },
      { command: "echo ok\ntouch p3" },
      { command: "echo ok $(touch p4)" },
      { command: "echo ok `touch p5`" },
      { command: "echo ok > p6" },
      { command: "sh -c 'echo ok; touch p7'" },
      { command: "P=1 echo ok" },
      { command: "echo ok", cwd: out },
      { command: "echo ok", cwd: "link" }, // a symlinked folder leading out
      { command: "sh", args: ["-c", "touch p8"] },
    ];
    for (const input of variants) {
      await assert.rejects(tools.Shell.execute(input), ToolError);
    }
    assert.equal(rec.calls.length, 1 + variants.length);
    assert.deepEqual(
      [...Deno.readDirSync(ws)].map((e) => e.name),
      ["link"],
      "nothing ran",
    );
    assert.deepEqual([...Deno.readDirSync(out)], []);
  });
});

Deno.test("Shell waits without timeoutSeconds; with it, reports timedOut and the output so far", async () => {
  await withWorkspace(async (ws) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const waited = await tools.Shell.execute({
      command: "sleep 1.2; echo done",
    });
    assert.equal(waited.timedOut, false);
    assert.equal(waited.output, "done\n");
    const cut = await tools.Shell.execute({
      command: "echo start; sleep 30",
      timeoutSeconds: 0.5,
    });
    assert.equal(cut.timedOut, true);
    assert.equal(cut.exitCode, null);
    assert.equal(cut.output, "start\n");
    assert.match(tools.Shell.toModelText(cut), /longer timeoutSeconds/);
    await assert.rejects(
      tools.Shell.execute({ command: "true", timeoutSeconds: 0 }),
      ToolError,
    );
  });
});

Deno.test("Shell keeps at most outputByteLimit bytes, marker included, and flags truncated", async () => {
  await withWorkspace(async (ws) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const exact = await tools.Shell.execute({
      command: "printf 1234567890",
      outputByteLimit: 10,
    });
    assert.equal(exact.truncated, false);
    assert.equal(exact.output, "1234567890");
    const cut = await tools.Shell.execute({
      command: "seq 1 10000",
      outputByteLimit: 1000,
    });
    assert.equal(cut.truncated, true);
    assert.ok(new TextEncoder().encode(cut.output).length <= 1000);
    assert.ok(cut.output.startsWith("1\n2\n"));
    assert.ok(cut.output.endsWith("9999\n10000\n"));
    assert.match(
      cut.output,
      /\[\.\.\. \d+ bytes \(\d+ lines\) omitted \.\.\.\]/,
    );
    assert.ok(cut.logPath !== undefined);
    await Deno.remove(cut.logPath);
  });
});

Deno.test('Shell "always" for `git -C <dir> status` still asks for `git -C <dir> push`', async () => {
  await withWorkspace(async (ws) => {
    const asked: string[] = [];
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: (request) => {
        asked.push(request.command ?? "");
        return asked.length === 1 ? "always" : false;
      },
    });
    await tools.Shell.execute({ command: "git", args: ["-C", ws, "status"] });
    await tools.Shell.execute({ command: "git", args: ["-C", ws, "push"] })
      .catch(() => {}); // refused is what we want; a run is the fault
    assert.equal(asked.length, 2, `asked only for: ${asked.join(" | ")}`);
  });
});

Deno.test("Shell gives a too-long command line a short error with advice, not the command back", async () => {
  await withWorkspace(async (ws) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const body = "line of generated content\n".repeat(8_000); // ~200 KB
    const command = `cat > big.txt <<'EOF'\n${body}EOF`;
    await assert.rejects(
      tools.Shell.execute({ command }),
      (error: unknown) => {
        assert.ok(error instanceof ToolError);
        assert.ok(error.message.length < 2_000, `${error.message.length}`);
        assert.match(error.message, /WriteFile/);
        return true;
      },
    );
  });
});

Deno.test("Shell caps its output log on disk", async () => {
  await withWorkspace(async (dir) => {
    const { result } = await childPeak(
      `import { createTools } from "${MOD}";
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const r = await tools.Shell.execute({ command: "yes | head -c 300M" });
const size = r.logPath ? Deno.statSync(r.logPath).size : -1;
if (r.logPath) Deno.removeSync(r.logPath);
(globalThis as Record<string, unknown>).result = { size, truncated: r.truncated };`,
      [dir],
    );
    const { size, truncated } = result as {
      size: number;
      truncated: boolean;
    };
    assert.equal(truncated, true);
    assert.ok(size > 0, "a log is written");
    assert.ok(
      size <= 256 * MB + 4096,
      `the log of 300 MB of output is ${size} bytes`,
    );
  });
});

Deno.test("Shell holds at most 1.5x outputByteLimit plus 32 MiB while 100 MB of output pass through", async () => {
  await withWorkspace(async (dir) => {
    const { result } = await childPeak(
      `import { createTools } from "${MOD}";
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const rss = (field: string) => Number(new RegExp(field + ":\\\\s+(\\\\d+)")
  .exec(Deno.readTextFileSync("/proc/self/status"))![1]) * 1024;
await tools.Shell.execute({ command: "true" });
Deno.writeTextFileSync("/proc/self/clear_refs", "5"); // resets VmHWM to VmRSS
const before = rss("VmRSS");
const r = await tools.Shell.execute({
  command: "seq 1 12500000",
  outputByteLimit: ${64 * MB},
});
const text = tools.Shell.toModelText(r);
const grown = rss("VmHWM") - before;
if (r.logPath) Deno.removeSync(r.logPath);
const output = r.output;
const marker = /\\[\\.\\.\\. (\\d+) bytes \\((\\d+) lines\\) omitted \\.\\.\\.\\]\\n/.exec(output)!;
const [head, tail] = [output.slice(0, marker.index), output.slice(marker.index + marker[0].length)];
(globalThis as Record<string, unknown>).result = {
  grown,
  bytes: new TextEncoder().encode(output).length,
  truncated: r.truncated,
  note: text.includes("The output was truncated (see the marker); the full output is in"),
  head: [head.slice(0, 6), head.split("\\n").length - 1],
  tail: [tail.slice(-18), tail.split("\\n").length - 1],
  omitted: [Number(marker[1]), Number(marker[2])],
  headAndTail: head.length + tail.length,
};`,
      [dir],
    );
    const { grown, bytes, truncated, note, head, tail, omitted, headAndTail } =
      result as {
        grown: number;
        bytes: number;
        truncated: boolean;
        note: boolean;
        head: [string, number];
        tail: [string, number];
        omitted: [number, number];
        headAndTail: number;
      };
    assert.ok(
      grown <= 1.5 * 64 * MB + 32 * MB,
      `memory grew by ${Math.round(grown / MB)} MiB`,
    );
    assert.equal(truncated, true);
    assert.ok(note, "the model text says where the full output is");
    assert.ok(bytes <= 64 * MB, `${bytes} bytes of output`);
    assert.equal(head[0], "1\n2\n3\n");
    assert.equal(tail[0], "12499999\n12500000\n");
    // seq 1 12500000 prints 101,388,897 bytes in 12,500,000 lines.
    assert.deepEqual(omitted, [
      101_388_897 - headAndTail,
      12_500_000 - head[1] - tail[1],
    ]);
  });
});
