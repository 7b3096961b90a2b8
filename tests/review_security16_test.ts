// Review: the permission boundary as an attacker would probe it. What a model,
// or a prompt-injected file it read, could make the tools do that the user did
// not approve: workspace escapes (symlinks, `..`, URIs), "always" answers that
// cover more than was approved, approval text that hides the real target, and
// Deno's own grants crossed through a subprocess.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/client";
import { createTools, type PermissionRequest, ToolError } from "../mod.ts";
import { callText, connectMcp } from "./support/mcp_client.ts";
import { withDirs } from "./support/workspace.ts";
import { ignoreWithout } from "./support/has.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const SECRET = "TOPSECRET-outside-42";

/** An approver that records every request and answers from `answers` (then false). */
function recorder(...answers: (boolean | "always")[]): {
  calls: PermissionRequest[];
  approve: (request: PermissionRequest) => boolean | "always";
} {
  const calls: PermissionRequest[] = [];
  return {
    calls,
    approve: (request) => {
      calls.push(request);
      return answers[calls.length - 1] ?? false;
    },
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A secret outside the workspace, and `ws/link` -> `out/dir` (a folder beside it). */
async function plantLink(ws: string, out: string): Promise<void> {
  await Deno.mkdir(join(out, "dir"));
  await Deno.writeTextFile(join(out, "secret.txt"), `${SECRET}\n`);
  await Deno.writeTextFile(join(out, "dir/inner.txt"), `${SECRET}\n`);
  await Deno.symlink(join(out, "dir"), join(ws, "link"));
  await Deno.writeTextFile(join(ws, "a.txt"), "inside\n");
}

/** `fello mcp` over stdio, with the given deno flags and server flags. */
function mcp(
  ws: string,
  denoFlags: string[],
  serverFlags: string[] = [],
): Promise<Client> {
  return connectMcp({
    workspace: ws,
    denoFlags,
    serverFlags,
    name: "review-security16",
  });
}

// ------------------------------------------------------------------ faults

// Fixed fault: the rg tool decides "outside" on the lexical path while ripgrep walks
// the physical one: with `ws/link` -> a folder outside, `link/..` is the
// workspace to the gate (so `fello mcp --workspace-only` asks nothing) but is
// the outside parent folder to rg, which prints its files. The same holds for
// `--ignore-file`/`-f` values. Expected: rg's path arguments are checked on
// the path rg will really open (resolve symlinks before `..`, or refuse a path
// with `..` after a symlink), so nothing outside the workspace is printed.
Deno.test({
  name:
    "fello mcp --workspace-only: rg 'link/..' through a symlink out of the workspace reads nothing outside",
  fn: async () => {
    await withDirs(async ({ ws, out }) => {
      await plantLink(ws, out);
      const client = await mcp(ws, ["-A"], ["--workspace-only"]);
      try {
        const r = await callText(client, "rg", { args: [SECRET, "link/.."] });
        assert.ok(!r.text.includes(SECRET), `rg read outside: ${r.text}`);
      } finally {
        await client.close();
      }
    });
  },
});

// Fixed fault: under Deno's narrow `--allow-read=<ws>,<checkout>`, the rg tool
// checks the grant on the path as written (`link`), which Deno grants, but
// ripgrep is a subprocess that follows the symlink to a folder outside the
// grant and prints its files: the second gate is crossed (ReadFile,
// file_outline and search do not read that target). Expected: rg checks the
// grant on the real path of each path argument and refuses with a ToolError
// naming `--allow-read=<real path>`.
Deno.test({
  name:
    "fello mcp under --allow-read=<ws>: rg on a symlink to an ungranted folder is refused, not run",
  ignore: ignoreWithout("rg"),
  fn: async () => {
    await withDirs(async ({ ws, out }) => {
      await plantLink(ws, out);
      const client = await mcp(ws, [
        `--allow-read=${ws},${REPO}`,
        "--allow-env",
        "--allow-run=rg",
      ]);
      try {
        const r = await callText(client, "rg", { args: [SECRET, "link"] });
        assert.ok(!r.text.includes(SECRET), `rg crossed the grant: ${r.text}`);
        assert.ok(r.isError && r.text.includes("--allow-read"), r.text);
      } finally {
        await client.close();
      }
    });
  },
});

// Fixed fault: under Deno's narrow `--allow-read=<ws>`, `search` given a symlink
// that leads out of the grant answers "No matches ... (0 files searched,
// 1 path unreadable)": the model concludes the text is absent, where ReadFile
// of the same path says `Deno denies reading ... run deno again with
// --allow-read=...`. Expected: a ToolError naming the path and the flag.
Deno.test({
  name:
    "fello mcp under --allow-read=<ws>: search on a symlink out of the grant is a clear Deno denial, not 'No matches'",
  fn: async () => {
    await withDirs(async ({ ws, out }) => {
      await plantLink(ws, out);
      await Deno.symlink(join(out, "secret.txt"), join(ws, "peek.txt"));
      const client = await mcp(ws, [
        `--allow-read=${ws},${REPO}`,
        "--allow-env",
        "--allow-run=rg",
      ]);
      try {
        const r = await callText(client, "search", {
          pattern: SECRET,
          path: "peek.txt",
        });
        assert.ok(r.isError, `not an error: ${r.text}`);
        assert.match(r.text, /--allow-read/);
      } finally {
        await client.close();
      }
    });
  },
});

// Fixed fault: Shell's `env` is neither in the approval request nor in what an
// "always" answer covers. The user approves `Run "ls x"` and the command runs
// with `PATH=<a folder the model chose>`, i.e. any program; and after "always"
// for `ls x`, the same line with a new `env` (PATH, LD_PRELOAD,
// GIT_CONFIG_*=core.fsmonitor...) runs arbitrary code unasked. Expected: the
// description shows the variables set, and "always" does not cover a call
// whose `env` differs (or any call with `env`).
Deno.test({
  name:
    "Shell: 'always' for a command does not cover it with a new env, and the approval shows the env",
  fn: async () => {
    await withDirs(async ({ ws, out }) => {
      await Deno.mkdir(join(out, "bin"));
      const fake = join(out, "bin/ls");
      await Deno.writeTextFile(fake, `#!/bin/sh\ntouch "${out}/PWNED"\n`);
      await Deno.chmod(fake, 0o755);
      const rec = recorder("always", false);
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
  },
});

// Fixed fault: an approval request's description carries a command's (or path's)
// control characters raw, and the CLI writes it to the terminal as is: a
// carriage return or an ANSI "erase line" makes `Allow Shell: Run "..."?`
// show a harmless command while another one runs. Expected: control
// characters other than newline and tab are shown escaped (e.g. `\r`,
// `\x1b`) in `description`.
Deno.test({
  name:
    "Shell/WriteFile: an approval description shows control characters escaped, so a CR or ANSI escape cannot hide the real command",
  fn: async () => {
    await withDirs(async ({ ws }) => {
      const rec = recorder();
      const tools = createTools({
        cwd: ws,
        permissionMode: "ask",
        approve: rec.approve,
      });
      await assert.rejects(
        tools.Shell.execute({ command: "rm -rf ~/x #\r\x1b[2Kgit status" }),
        ToolError,
      );
      await assert.rejects(
        tools.WriteFile.execute({ path: "a\x1b[2K\rb.txt", content: "x" }),
        ToolError,
      );
      assert.equal(rec.calls.length, 2);
      for (const { description } of rec.calls) {
        // deno-lint-ignore no-control-regex
        assert.doesNotMatch(description, /[\x00-\x08\x0b-\x1f\x7f]/);
      }
    });
  },
});

// Fixed fault: a read through a symlink out of the workspace asks `Read
// "link/inner.txt"` (outsideWorkspace: true, and `path` is the lexical
// `<ws>/link/inner.txt`): nothing tells the user it is really
// `<out>/dir/inner.txt` (say `~/.ssh/id_rsa`), so a repository's
// innocent-looking link gets approved. Expected: the description (or `path`)
// of an outside request names the real target.
Deno.test({
  name:
    "ReadFile/WriteFile: approving a path through a symlink out of the workspace shows where it really leads",
  fn: async () => {
    await withDirs(async ({ ws, out }) => {
      await plantLink(ws, out);
      const rec = recorder();
      const tools = createTools({
        cwd: ws,
        permissionMode: "acceptEdits",
        approve: rec.approve,
      });
      const real = join(out, "dir/inner.txt");
      await assert.rejects(
        tools.ReadFile.execute({ path: "link/inner.txt" }),
        ToolError,
      );
      await assert.rejects(
        tools.WriteFile.execute({ path: "link/inner.txt", content: "x" }),
        ToolError,
      );
      assert.equal(rec.calls.length, 2);
      for (const call of rec.calls) {
        assert.equal(call.outsideWorkspace, true);
        assert.ok(
          call.description.includes(real) || call.path === real,
          `the request hides the real target: ${JSON.stringify(call)}`,
        );
      }
    });
  },
});

// Fixed fault: WriteFile and EditFile decide "outside" before asking and never
// again: a file inside the workspace that becomes a symlink to a file outside
// while the user decides (a watcher, a background job, a build step started
// earlier) is written through, so an approval of `Write ... "a.txt"` (inside)
// replaces a file outside. Expected: after the approval, under the file's
// lock, the boundary is checked again and a target now outside is asked about
// (or refused), leaving the outside file as it was.
Deno.test({
  name:
    "WriteFile/EditFile: a file swapped for a symlink out of the workspace while approval is pending is not written through",
  fn: async () => {
    await withDirs(async ({ ws, out }) => {
      const target = join(out, "target.txt");
      await Deno.writeTextFile(target, "ORIGINAL\n");
      for (const tool of ["WriteFile", "EditFile"] as const) {
        const file = join(ws, "a.txt");
        await Deno.writeTextFile(file, "ORIGINAL\n");
        const tools = createTools({
          cwd: ws,
          permissionMode: "ask",
          approve: async (request) => {
            if (!request.outsideWorkspace) {
              await Deno.remove(file);
              await Deno.symlink(target, file);
            }
            return !request.outsideWorkspace;
          },
        });
        const call = tool === "WriteFile"
          ? tools.WriteFile.execute({ path: "a.txt", content: "PWNED\n" })
          : tools.EditFile.execute({
            path: "a.txt",
            oldText: "ORIGINAL",
            newText: "PWNED",
          });
        await call.catch(() => {});
        assert.equal(await Deno.readTextFile(target), "ORIGINAL\n", tool);
        await Deno.remove(file);
      }
    });
  },
});

// Fixed fault: "always" keys are not one-to-one. With `args`, the key is the words
// joined by spaces, so `{ command: "exact:sh", args: ["x.sh"] }` (a missing
// program; the user sees `Run "exact:sh x.sh"`) is keyed `exact:sh x.sh`,
// the very key of the exact-line launcher `sh x.sh`: answering "always" to
// the first runs the script unasked. Expected: keys that cannot collide
// (e.g. a distinct prefix per kind, and args quoted as displayCommand does).
Deno.test({
  name:
    "Shell: 'always' for an odd command never approves a different launcher line (sh x.sh)",
  fn: async () => {
    await withDirs(async ({ ws }) => {
      await Deno.writeTextFile(join(ws, "x.sh"), "touch collided\n");
      const rec = recorder("always", false);
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
  },
});

// ------------------------------------------------- boundaries that hold

Deno.test("outside paths in disguise (file:// with %2e%2e, ~/.., //..//, a symlinked folder) are asked as outside by every file tool", async () => {
  await withDirs(async ({ ws, out }) => {
    await plantLink(ws, out);
    await Deno.writeTextFile(join(out, "s.ts"), "export const s = 1;\n");
    const home = Deno.env.get("HOME");
    const disguises = [
      `file://${ws}/%2e%2e/out/s.ts`,
      `file://localhost${out}/s.ts`,
      `${ws}//..//out/s.ts`,
      "link/inner.ts",
      "link/../../out/s.ts",
    ];
    if (home?.startsWith("/")) {
      disguises.push(`~/${"../".repeat(20)}${out.slice(1)}/s.ts`);
    }
    for (const path of disguises) {
      const rec = recorder();
      const tools = createTools({
        cwd: ws,
        permissionMode: "acceptEdits",
        approve: rec.approve,
      });
      const calls = [
        () => tools.ReadFile.execute({ path }),
        () => tools.WriteFile.execute({ path, content: "x" }),
        () => tools.EditFile.execute({ path, oldText: "s", newText: "t" }),
        () => tools.search.execute({ pattern: "s", path }),
        () => tools.file_outline.execute({ path }),
      ];
      for (const call of calls) await assert.rejects(call, ToolError);
      assert.deepEqual(
        rec.calls.map((c) => [c.tool, c.outsideWorkspace]),
        [
          ["ReadFile", true],
          ["WriteFile", true],
          ["EditFile", true],
          ["search", true],
          ["file_outline", true],
        ],
        path,
      );
    }
    assert.equal(
      await Deno.readTextFile(join(out, "s.ts")),
      "export const s = 1;\n",
    );
  });
});

Deno.test("readOnly: writes, edits and Shell are refused without asking, even after an earlier 'always'", async () => {
  await withDirs(async ({ ws }) => {
    const rec = recorder("always", "always");
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await tools.WriteFile.execute({ path: "a.txt", content: "a\n" });
    await tools.Shell.execute({ command: "echo ok" });
    tools.permissionMode = "readOnly";
    const attempts = [
      () => tools.WriteFile.execute({ path: "b.txt", content: "b\n" }),
      () =>
        tools.EditFile.execute({ path: "a.txt", oldText: "a", newText: "z" }),
      () => tools.Shell.execute({ command: "echo ok" }),
      () => tools.Shell.execute({ command: "touch", args: ["c.txt"] }),
    ];
    for (const attempt of attempts) {
      await assert.rejects(attempt, (e) => {
        assert.ok(e instanceof ToolError);
        assert.match(e.message, /readOnly/);
        return true;
      });
    }
    assert.equal(rec.calls.length, 2, "readOnly asked");
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "a\n");
    assert.equal(await exists(join(ws, "b.txt")), false);
    assert.equal(await exists(join(ws, "c.txt")), false);
  });
});

Deno.test("Shell: 'always' for `echo ok` covers no chained, substituted, multi-line, launcher or outside-cwd variant", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.symlink(out, join(ws, "link"));
    const rec = recorder("always");
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

Deno.test("WriteFile on a dangling symlink or a hard link to an outside file replaces the link, not the outside file", async () => {
  await withDirs(async ({ ws, out }) => {
    const outside = join(out, "o.txt");
    await Deno.writeTextFile(outside, "ORIGINAL\n");
    await Deno.link(outside, join(ws, "hard.txt"));
    await Deno.symlink(join(out, "new.txt"), join(ws, "dangling.txt"));
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    await tools.WriteFile.execute({ path: "hard.txt", content: "W\n" });
    await tools.EditFile.execute({
      path: "hard.txt",
      oldText: "W",
      newText: "E",
    });
    await tools.WriteFile.execute({ path: "dangling.txt", content: "W\n" });
    assert.equal(await Deno.readTextFile(outside), "ORIGINAL\n");
    assert.equal(await exists(join(out, "new.txt")), false);
    assert.equal(await Deno.readTextFile(join(ws, "hard.txt")), "E\n");
    assert.equal(
      (await Deno.lstat(join(ws, "dangling.txt"))).isSymlink,
      false,
    );
  });
});

Deno.test("fello mcp --workspace-only: search, file_outline and rg refuse a symlinked folder, an absolute path and a -f file outside", async () => {
  await withDirs(async ({ ws, out }) => {
    await plantLink(ws, out);
    await Deno.writeTextFile(join(out, "dir/x.ts"), "export function f() {}\n");
    const client = await mcp(ws, ["-A"], ["--workspace-only"]);
    try {
      const calls: [string, Record<string, unknown>][] = [
        ["search", { pattern: "TOPSECRET", path: "link" }],
        ["search", { pattern: "TOPSECRET", path: join(out, "secret.txt") }],
        ["file_outline", { path: "link/x.ts" }],
        ["rg", { args: ["TOPSECRET", "link"] }],
        ["rg", { args: ["TOPSECRET", join(out, "secret.txt")] }],
        ["rg", { args: ["-f", join(out, "secret.txt"), "a.txt"] }],
        ["rg", { args: ["--pre", "cat", "TOPSECRET"] }],
      ];
      for (const [name, args] of calls) {
        const r = await callText(client, name, args);
        const label = `${name} ${JSON.stringify(args)}: ${r.text}`;
        assert.ok(r.isError, label);
        assert.ok(!r.text.includes("outside-42"), label);
      }
    } finally {
      await client.close();
    }
  });
});
