// Shell in the OS sandbox (bubblewrap): what a sandboxed command may write and
// reach, the permission table with and without `sandbox: false`, and the
// errors when the sandbox is required but missing.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, type CreateToolsOptions } from "../create_tools.ts";
import { createLocalProcesses } from "./local_processes.ts";
import type { PermissionRequest, ProcessBackend } from "../types.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";
import { has } from "../../tests/support/programs.ts";
import { exists } from "../../internal/exists.ts";

// Real bubblewrap is needed: without it these tests are ignored.
const NO_BWRAP = !has("bwrap");

/** Tools in `cwd` that record every question and approve it. */
function recordingTools(
  cwd: string,
  options: CreateToolsOptions,
): { tools: ReturnType<typeof createTools>; asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  const tools = createTools({
    cwd,
    approve: (request) => (asked.push(request), true),
    ...options,
  });
  return { tools, asked };
}

/** A local HTTP server answering "reached", stopped when disposed. */
function localServer(): { url: string } & AsyncDisposable {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("reached"),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test({
  name:
    "Shell in acceptEdits runs a sandboxed command unasked: it writes the workspace, not $HOME or /etc",
  ignore: NO_BWRAP,
  async fn() {
    await withWorkspace(async (ws) => {
      const { tools, asked } = recordingTools(ws, {
        permissionMode: "acceptEdits",
      });
      const name = `fello-sandbox-${crypto.randomUUID()}`;
      const home = Deno.env.get("HOME") ?? "/root";
      const inside = await tools.Shell.execute({ command: `touch ${ws}/x` });
      assert.equal(inside.exitCode, 0, inside.output);
      assert.equal(inside.sandboxed, true);
      assert.ok(await exists(join(ws, "x")));
      for (const folder of [home, "/etc"]) {
        const outside = await tools.Shell.execute({
          command: `touch ${folder}/${name}`,
        });
        assert.notEqual(outside.exitCode, 0);
        assert.match(outside.output, /Read-only file system/);
        assert.equal(await exists(join(folder, name)), false);
        const text = tools.Shell.toModelText(outside);
        assert.match(text, /ran in the OS sandbox/);
        assert.match(text, /"sandbox": false/);
      }
      assert.deepEqual(asked, []);
    });
  },
});

Deno.test({
  name:
    "Shell in readOnly runs ls unasked in the sandbox and cannot write the workspace",
  ignore: NO_BWRAP,
  async fn() {
    await withWorkspace(async (ws) => {
      await Deno.writeTextFile(join(ws, "seen.txt"), "");
      const { tools, asked } = recordingTools(ws, {
        permissionMode: "readOnly",
      });
      const ls = await tools.Shell.execute({ command: "ls" });
      assert.deepEqual([ls.exitCode, ls.output, ls.sandboxed], [
        0,
        "seen.txt\n",
        true,
      ]);
      const touch = await tools.Shell.execute({ command: `touch ${ws}/x` });
      assert.notEqual(touch.exitCode, 0);
      assert.match(touch.output, /Read-only file system/);
      assert.equal(await exists(join(ws, "x")), false);
      assert.deepEqual(asked, []);
    });
  },
});

Deno.test({
  name:
    "Shell keeps a sandboxed command off the network unless sandboxNetwork is set",
  ignore: NO_BWRAP || !has("curl"),
  async fn() {
    await withWorkspace(async (ws) => {
      await using server = localServer();
      const command = `curl -sS --max-time 10 ${server.url}`;
      const closed = createTools({ cwd: ws, permissionMode: "acceptEdits" });
      const refused = await closed.Shell.execute({ command });
      assert.notEqual(refused.exitCode, 0);
      assert.doesNotMatch(refused.output, /reached/);
      assert.match(closed.Shell.toModelText(refused), /no network/);
      const open = createTools({
        cwd: ws,
        permissionMode: "acceptEdits",
        sandboxNetwork: true,
      });
      const reached = await open.Shell.execute({ command });
      assert.deepEqual([reached.exitCode, reached.output, reached.sandboxed], [
        0,
        "reached",
        true,
      ]);
    });
  },
});

Deno.test({
  name: "Shell keeps deno's fetch in the sandbox off a local server",
  ignore: NO_BWRAP,
  async fn() {
    await withWorkspace(async (ws) => {
      await using server = localServer();
      const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
      const result = await tools.Shell.execute({
        command: Deno.execPath(),
        args: [
          "eval",
          `console.log(await (await fetch(${
            JSON.stringify(server.url)
          })).text())`,
        ],
        timeoutSeconds: 120,
      });
      assert.notEqual(result.exitCode, 0);
      assert.match(result.output, /fetch failed/);
      assert.doesNotMatch(result.output, /^reached$/m);
      assert.match(tools.Shell.toModelText(result), /ran in the OS sandbox/);
    });
  },
});

Deno.test({
  name: "Shell ends a sandboxed command's background child with the command",
  ignore: NO_BWRAP,
  async fn() {
    await withWorkspace(async (ws) => {
      const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
      const result = await tools.Shell.execute({
        command: `(sleep 1; touch ${ws}/late) > /dev/null 2>&1 & echo started`,
      });
      assert.deepEqual([result.exitCode, result.output], [0, "started\n"]);
      // The child would have written its file a second after starting.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.equal(await exists(join(ws, "late")), false);
    });
  },
});

Deno.test({
  name:
    "Shell asks about sandbox: false in acceptEdits, saying it runs unconfined, and refuses it in readOnly",
  ignore: NO_BWRAP,
  async fn() {
    await withWorkspace(async (ws) => {
      const { tools, asked } = recordingTools(ws, {
        permissionMode: "acceptEdits",
      });
      const result = await tools.Shell.execute({
        command: `touch ${ws}/x`,
        sandbox: false,
      });
      assert.deepEqual([result.exitCode, result.sandboxed], [0, false]);
      assert.equal(asked.length, 1);
      assert.equal(asked[0].sandboxed, false);
      assert.match(asked[0].description, /outside the sandbox \(unconfined\)/);
      tools.permissionMode = "readOnly";
      await assert.rejects(
        tools.Shell.execute({ command: "ls", sandbox: false }),
        /Refused: Run "ls" outside the sandbox \(unconfined\): permission mode "readOnly" allows no executes/,
      );
      assert.equal(asked.length, 1);
    });
  },
});

Deno.test({
  name:
    "Shell in ask mode asks about a sandboxed command and keeps its always apart from sandbox: false",
  ignore: NO_BWRAP,
  async fn() {
    await withWorkspace(async (ws) => {
      const asked: PermissionRequest[] = [];
      const tools = createTools({
        cwd: ws,
        permissionMode: "ask",
        approve: (request) => (asked.push(request), "always"),
      });
      const first = await tools.Shell.execute({ command: "echo hi" });
      await tools.Shell.execute({ command: "echo hi" });
      assert.deepEqual([first.output, first.sandboxed], ["hi\n", true]);
      assert.equal(asked.length, 1);
      assert.equal(asked[0].sandboxed, true);
      await tools.Shell.execute({ command: "echo hi", sandbox: false });
      assert.equal(asked.length, 2);
      assert.match(asked[1].description, /unconfined/);
    });
  },
});

Deno.test({
  name:
    "Shell in allow mode runs unconfined under sandbox auto and sandboxed under required",
  ignore: NO_BWRAP,
  async fn() {
    await withWorkspace(async (ws) => {
      const auto = createTools({ cwd: ws, permissionMode: "allow" });
      assert.equal(
        (await auto.Shell.execute({ command: "true" })).sandboxed,
        false,
      );
      const required = createTools({
        cwd: ws,
        permissionMode: "allow",
        sandbox: "required",
      });
      const result = await required.Shell.execute({ command: "touch /etc/x" });
      assert.equal(result.sandboxed, true);
      assert.match(result.output, /Read-only file system/);
      await assert.rejects(
        required.Shell.execute({ command: "true", sandbox: false }),
        /sandbox "required" runs every command in the sandbox/,
      );
    });
  },
});

Deno.test("Shell under sandbox off runs unconfined and asks in acceptEdits", async () => {
  await withWorkspace(async (ws) => {
    const { tools, asked } = recordingTools(ws, {
      permissionMode: "acceptEdits",
      sandbox: "off",
    });
    const result = await tools.Shell.execute({ command: "echo hi" });
    assert.deepEqual([result.output, result.sandboxed], ["hi\n", false]);
    assert.equal(asked.length, 1);
    assert.doesNotMatch(asked[0].description, /unconfined/);
  });
});

Deno.test("Shell under sandbox required refuses clearly when bwrap is missing", async () => {
  await withWorkspace(async (ws) => {
    const processes = createLocalProcesses({ bwrap: join(ws, "no-bwrap") });
    const tools = createTools({
      cwd: ws,
      permissionMode: "acceptEdits",
      sandbox: "required",
      backend: { processes },
    });
    await assert.rejects(
      tools.Shell.execute({ command: `touch ${ws}/x` }),
      /Cannot run "touch .*": sandbox "required" needs the OS sandbox, and ".*no-bwrap" \(bubblewrap\) was not found; install it/,
    );
    assert.equal(await exists(join(ws, "x")), false);
    // Under "auto" the same setup runs the command as before, asking first.
    const asked: PermissionRequest[] = [];
    const auto = createTools({
      cwd: ws,
      permissionMode: "acceptEdits",
      approve: (request) => (asked.push(request), true),
      backend: { processes },
    });
    const result = await auto.Shell.execute({ command: "echo hi" });
    assert.deepEqual([result.output, result.sandboxed, asked.length], [
      "hi\n",
      false,
      1,
    ]);
  });
});

Deno.test("Shell under sandbox required refuses a backend that cannot sandbox", async () => {
  let ran = 0;
  const processes: ProcessBackend = {
    run() {
      ran++;
      return Promise.resolve({
        exitCode: 0,
        signal: null,
        timedOut: false,
        truncated: false,
        output: "",
      });
    },
  };
  await withWorkspace(async (ws) => {
    const tools = createTools({
      cwd: ws,
      permissionMode: "allow",
      sandbox: "required",
      backend: { processes },
    });
    await assert.rejects(
      tools.Shell.execute({ command: "ls" }),
      /sandbox "required" needs the OS sandbox, and the process backend \(an editor's terminals\) cannot sandbox/,
    );
    assert.equal(ran, 0);
  });
});

Deno.test({
  name: "Shell names --allow-run=bwrap when Deno denies running bwrap",
  ignore: NO_BWRAP,
  permissions: { read: true, write: true, env: true, run: ["sh"] },
  async fn() {
    await withWorkspace(async (ws) => {
      const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
      await assert.rejects(
        tools.Shell.execute({ command: "true" }),
        /Cannot run Shell in the sandbox: Deno denies running "bwrap"; run deno again with --allow-run=sh,bwrap/,
      );
    });
  },
});

Deno.test("createTools() refuses an unknown sandbox mode", () => {
  assert.throws(
    // deno-lint-ignore no-explicit-any
    () => createTools({ sandbox: "sometimes" as any }),
    /Cannot use sandbox "sometimes": use one of "auto", "off", "required"/,
  );
});

Deno.test({
  name:
    "Shell in the sandbox reports a missing executable as a ToolError, as outside it",
  ignore: NO_BWRAP,
  async fn() {
    await withWorkspace(async (ws) => {
      const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
      await assert.rejects(
        tools.Shell.execute({ command: "no-such-program-x", args: ["a"] }),
        /Cannot run "no-such-program-x a": no executable "no-such-program-x" was found on PATH/,
      );
    });
  },
});
