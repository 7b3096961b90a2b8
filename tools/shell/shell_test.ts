import { isAlive } from "../../tests/support/processes.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, type CreateToolsOptions } from "../create_tools.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { PermissionRequest } from "../types.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";

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
