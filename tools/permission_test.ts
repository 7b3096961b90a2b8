// The permission mode table end to end, through the real tools: who may read
// and write inside and outside the workspace, what is asked, and what
// "always" remembers.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, ToolError } from "../mod.ts";
import { answering, rejectsTool } from "../tests/support/tool_asserts.ts";
import { exists } from "../internal/exists.ts";
import { plantLink } from "../tests/support/planted_secret.ts";
import { NobodyToAskError, PermissionGate } from "./permission.ts";
import { withDirs } from "../tests/support/workspace.ts";
import type {
  PermissionAnswer,
  PermissionMode,
  PermissionRequest,
} from "../mod.ts";

type Cell = "yes" | "ask" | "refused";
type Op = "read" | "write" | "edit";

const TABLE: Record<
  PermissionMode,
  Record<"readIn" | "readOut" | "writeIn" | "writeOut", Cell>
> = {
  ask: { readIn: "yes", readOut: "ask", writeIn: "ask", writeOut: "ask" },
  acceptEdits: {
    readIn: "yes",
    readOut: "ask",
    writeIn: "yes",
    writeOut: "ask",
  },
  allow: { readIn: "yes", readOut: "yes", writeIn: "yes", writeOut: "yes" },
  readOnly: {
    readIn: "yes",
    readOut: "ask",
    writeIn: "refused",
    writeOut: "refused",
  },
};

function recorder(answer: PermissionAnswer | undefined) {
  const requests: PermissionRequest[] = [];
  const approve = answer === undefined
    ? undefined
    : (request: PermissionRequest) => {
      requests.push(request);
      return answer;
    };
  return { requests, approve };
}

async function attempt(
  tools: ReturnType<typeof createTools>,
  op: Op,
  path: string,
  extra: { cwd?: string } = {},
): Promise<"ok" | string> {
  try {
    if (op === "read") await tools.ReadFile.execute({ path, ...extra });
    else if (op === "write") {
      await tools.WriteFile.execute({ path, content: "changed\n", ...extra });
    } else {
      await tools.EditFile.execute({
        path,
        oldText: "original",
        newText: "edited",
        ...extra,
      });
    }
    return "ok";
  } catch (error) {
    assert.ok(error instanceof ToolError, `not a ToolError: ${error}`);
    return error.message;
  }
}

for (const mode of Object.keys(TABLE) as PermissionMode[]) {
  Deno.test(`createTools() permissionMode "${mode}" follows the mode table`, async () => {
    await withDirs(async ({ ws, out }) => {
      for (const [key, cell] of Object.entries(TABLE[mode])) {
        const outside = key.endsWith("Out");
        const ops: Op[] = key.startsWith("read") ? ["read"] : ["write", "edit"];
        for (const op of ops) {
          for (const answer of [true, false, undefined] as const) {
            const file = join(outside ? out : ws, "f.txt");
            await Deno.writeTextFile(file, "original\n");
            const { requests, approve } = recorder(answer);
            const tools = createTools({
              cwd: ws,
              permissionMode: mode,
              approve,
            });
            const result = await attempt(tools, op, outside ? file : "f.txt");
            const label = `${mode} ${key} ${op} approve=${answer}`;
            const allowed = cell === "yes" ||
              (cell === "ask" && answer === true);
            if (allowed) assert.equal(result, "ok", label);
            else {
              assert.match(result, /Refused/, label);
              assert.ok(result.includes("f.txt"), `${label}: ${result}`);
            }
            assert.equal(
              requests.length,
              cell === "ask" && answer !== undefined ? 1 : 0,
              label,
            );
            if (requests.length === 1) {
              const [request] = requests;
              assert.equal(
                request.action,
                op === "read" ? "read" : "write",
                label,
              );
              assert.equal(request.path, file, label);
              assert.equal(request.outsideWorkspace, outside, label);
              assert.equal(
                request.tool,
                { read: "ReadFile", write: "WriteFile", edit: "EditFile" }[op],
              );
              assert.ok(request.description.includes("f.txt"), label);
            }
            const content = await Deno.readTextFile(file);
            if (op !== "read" && !allowed) {
              assert.equal(content, "original\n", label);
            }
          }
        }
      }
    });
  });
}

Deno.test('createTools() "always" for a write inside covers later writes inside, for that instance only', async () => {
  await withDirs(async ({ ws, out }) => {
    let answer: PermissionAnswer = "always";
    const asked: string[] = [];
    const approve = (request: PermissionRequest) => {
      asked.push(request.path ?? "");
      return answer;
    };
    const tools = createTools({ cwd: ws, permissionMode: "ask", approve });
    assert.equal(await attempt(tools, "write", "a.txt"), "ok");
    answer = false;
    assert.equal(await attempt(tools, "write", "b/c.txt"), "ok");
    assert.equal(
      await attempt(tools, "edit", "a.txt"),
      'Cannot edit "a.txt": oldText was not found, and nothing similar is in the file; read the file again to see its current content',
    );
    assert.equal(asked.length, 1);
    // Outside is still asked.
    assert.match(
      await attempt(tools, "write", join(out, "x.txt")),
      /Refused by the user/,
    );
    assert.equal(asked.length, 2);
    // Another instance asks again.
    const other = createTools({ cwd: ws, permissionMode: "ask", approve });
    assert.match(await attempt(other, "write", "a.txt"), /Refused by the user/);
    assert.equal(asked.length, 3);
  });
});

Deno.test("createTools() an outside approval covers that path only", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.writeTextFile(join(out, "a.txt"), "a");
    await Deno.writeTextFile(join(out, "b.txt"), "b");
    let answer: PermissionAnswer = "always";
    const asked: string[] = [];
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: (request) => {
        asked.push(request.path ?? "");
        return answer;
      },
    });
    assert.equal(await attempt(tools, "read", join(out, "a.txt")), "ok");
    answer = false;
    assert.equal(await attempt(tools, "read", join(out, "a.txt")), "ok");
    assert.match(await attempt(tools, "read", join(out, "b.txt")), /Refused/);
    assert.equal(
      await attempt(tools, "write", join(out, "a.txt")).then((r) =>
        /Refused/.test(r)
      ),
      true,
    );
    assert.deepEqual(asked, [
      join(out, "a.txt"),
      join(out, "b.txt"),
      join(out, "a.txt"),
    ]);
  });
});

Deno.test(
  "createTools() counts .., absolute paths and symlinks pointing out as outside",
  {
    ignore: Deno.build.os === "windows",
  },
  async () => {
    await withDirs(async ({ ws, out }) => {
      await Deno.writeTextFile(join(out, "secret.txt"), "secret");
      await Deno.symlink(join(out, "secret.txt"), join(ws, "link.txt"));
      await Deno.symlink(out, join(ws, "linkdir"));
      await Deno.mkdir(join(ws, "sub"));
      await Deno.writeTextFile(join(ws, "inside.txt"), "ok");
      const { requests, approve } = recorder(false);
      const tools = createTools({
        cwd: ws,
        permissionMode: "acceptEdits",
        approve,
      });
      assert.match(await attempt(tools, "read", "link.txt"), /Refused/);
      assert.match(
        await attempt(tools, "read", "../out/secret.txt"),
        /Refused/,
      );
      assert.match(
        await attempt(tools, "read", "sub/../../out/secret.txt"),
        /Refused/,
      );
      assert.match(
        await attempt(tools, "write", "linkdir/new/deep.txt"),
        /Refused/,
      );
      assert.match(await attempt(tools, "write", "link.txt"), /Refused/);
      assert.equal(requests.length, 5);
      assert.ok(requests.every((r) => r.outsideWorkspace));
      assert.equal(await Deno.readTextFile(join(out, "secret.txt")), "secret");
      await assert.rejects(Deno.stat(join(out, "new")));
      // Inside through `..` that stays inside is inside.
      assert.equal(await attempt(tools, "read", "sub/../inside.txt"), "ok");
      assert.equal(
        await attempt(tools, "write", join(ws, "sub", "new.txt")),
        "ok",
      );
      assert.equal(requests.length, 5);
    });
  },
);

Deno.test("createTools() a per-call cwd changes resolution, not the workspace boundary", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.mkdir(join(ws, "sub"));
    await Deno.writeTextFile(join(ws, "sub", "a.txt"), "in sub");
    await Deno.writeTextFile(join(ws, "top.txt"), "top");
    await Deno.writeTextFile(join(out, "a.txt"), "outside");
    const { requests, approve } = recorder(false);
    const tools = createTools({
      cwd: ws,
      permissionMode: "acceptEdits",
      approve,
    });
    const inSub = await tools.ReadFile.execute({ path: "a.txt", cwd: "sub" });
    assert.equal(inSub.content, "in sub");
    assert.equal(
      await attempt(tools, "read", "../top.txt", { cwd: "sub" }),
      "ok",
    );
    assert.equal(await attempt(tools, "write", "b.txt", { cwd: "sub" }), "ok");
    assert.equal(
      await Deno.readTextFile(join(ws, "sub", "b.txt")),
      "changed\n",
    );
    assert.match(
      await attempt(tools, "read", "a.txt", { cwd: out }),
      /Refused/,
    );
    assert.match(
      await attempt(tools, "write", "a.txt", { cwd: "../out" }),
      /Refused/,
    );
    assert.equal(requests.length, 2);
    assert.ok(
      requests.every((r) =>
        r.outsideWorkspace && r.path === join(out, "a.txt")
      ),
    );
    assert.equal(await Deno.readTextFile(join(out, "a.txt")), "outside");
  });
});

Deno.test("createTools() without approve refuses whatever would be asked", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.writeTextFile(join(out, "a.txt"), "a");
    const tools = createTools({ cwd: ws });
    assert.equal(tools.permissionMode, "ask");
    assert.match(
      await attempt(tools, "read", join(out, "a.txt")),
      /no approver is configured/,
    );
    assert.match(
      await attempt(tools, "write", "new.txt"),
      /no approver is configured/,
    );
    await assert.rejects(Deno.stat(join(ws, "new.txt")));
  });
});

Deno.test("PermissionGate tells the model that nobody could be asked when the approver says so", async () => {
  const gate = new PermissionGate("ask", () => {
    throw new NobodyToAskError("stdin is not a terminal");
  });
  await assert.rejects(
    gate.check({
      tool: "Shell",
      action: "execute",
      command: "ls",
      outsideWorkspace: false,
      description: 'Run "ls"',
    }),
    (error: Error) => {
      assert.ok(error instanceof ToolError);
      assert.match(
        error.message,
        /^Refused: Run "ls": nobody could be asked to approve it \(stdin is not a terminal\)/,
      );
      assert.doesNotMatch(error.message, /by the user/);
      return true;
    },
  );
});

Deno.test("PermissionGate keys 'always' so that no request poses as another (a command with '@', another tool)", async () => {
  const asked: string[] = [];
  const gate = new PermissionGate("ask", (request) => {
    asked.push(request.description);
    return "always";
  });
  const run = { action: "execute" } as const;
  await gate.check({
    ...run,
    tool: "Shell",
    command: "ls",
    path: "/x",
    outsideWorkspace: true,
    description: "ls in /x",
  });
  await gate.check({
    ...run,
    tool: "Shell",
    command: "ls@/x",
    path: "/ws",
    outsideWorkspace: false,
    description: "ls@/x",
  });
  await gate.check({
    ...run,
    tool: "lookup",
    command: "ls",
    path: "/x",
    outsideWorkspace: true,
    description: "the lookup tool",
  });
  assert.deepEqual(asked, ["ls in /x", "ls@/x", "the lookup tool"]);
});

Deno.test("PermissionGate hands the approver description and command with control characters escaped", async () => {
  const asked: PermissionRequest[] = [];
  const gate = new PermissionGate("ask", (request) => {
    asked.push(request);
    return false;
  });
  await assert.rejects(
    gate.check({
      tool: "Shell",
      action: "execute",
      command: "rm -rf ~ #\r\x1b[2Kls",
      outsideWorkspace: false,
      description: 'Run "rm -rf ~ #\r\x1b[2Kls"',
      alwaysKey: "key",
    }),
    (error) => {
      assert.ok(error instanceof ToolError);
      assert.equal(
        error.message,
        'Refused by the user: Run "rm -rf ~ #\\r\\x1b[2Kls"; do not retry it, ask the user how to proceed',
      );
      return true;
    },
  );
  assert.deepEqual(asked, [{
    tool: "Shell",
    action: "execute",
    command: "rm -rf ~ #\\r\\x1b[2Kls",
    outsideWorkspace: false,
    description: 'Run "rm -rf ~ #\\r\\x1b[2Kls"',
  }]);
});

Deno.test("createTools() decides outside on real paths: .., absolute, file and folder links, nearest existing parent", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.writeTextFile(join(out, "o.txt"), "outside\n");
    await Deno.symlink(out, join(ws, "link"));
    await Deno.symlink(join(out, "o.txt"), join(ws, "file_link.txt"));
    await Deno.mkdir(join(ws, "real"));
    for (
      const path of [
        "../out/o.txt",
        join(out, "o.txt"),
        "link/o.txt",
        "file_link.txt",
      ]
    ) {
      const rec = recorder(false);
      const tools = createTools({
        cwd: ws,
        permissionMode: "acceptEdits",
        approve: rec.approve,
      });
      await rejectsTool(tools.ReadFile.execute({ path }));
      assert.equal(rec.requests.length, 1, path);
      assert.equal(rec.requests[0].outsideWorkspace, true, path);
    }
    for (const path of ["link/new.txt", "link/deeper/newer/x.txt"]) {
      const rec = recorder(false);
      const tools = createTools({
        cwd: ws,
        permissionMode: "acceptEdits",
        approve: rec.approve,
      });
      await rejectsTool(tools.WriteFile.execute({ path, content: "x" }));
      assert.equal(rec.requests.length, 1, path);
      assert.equal(rec.requests[0].outsideWorkspace, true, path);
    }
    assert.deepEqual(
      [...Deno.readDirSync(out)].map((e) => e.name),
      ["o.txt"],
      "nothing written outside",
    );
    // A new file under a real folder inside is inside.
    const rec = recorder(false);
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await rejectsTool(
      tools.WriteFile.execute({ path: "real/sub/new.txt", content: "x" }),
    );
    assert.equal(rec.requests[0].outsideWorkspace, false);
  });
});

Deno.test('createTools() "always" inside covers writes and edits inside; outside it covers that path only', async () => {
  await withDirs(async ({ ws, out }) => {
    const rec = recorder("always");
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await tools.WriteFile.execute({ path: "a.txt", content: "a\n" });
    await tools.WriteFile.execute({ path: "dir/b.txt", content: "b\n" });
    await tools.EditFile.execute({ path: "a.txt", oldText: "a", newText: "A" });
    assert.equal(rec.requests.length, 1, "one question for the workspace");
    await tools.WriteFile.execute({ path: join(out, "x.txt"), content: "x\n" });
    assert.equal(rec.requests.length, 2, "outside asks again");
    assert.equal(rec.requests[1].outsideWorkspace, true);
    await tools.WriteFile.execute({
      path: join(out, "x.txt"),
      content: "x2\n",
    });
    assert.equal(rec.requests.length, 2, "the same outside path is remembered");
    await tools.WriteFile.execute({ path: join(out, "y.txt"), content: "y\n" });
    assert.equal(rec.requests.length, 3, "another outside path asks again");
    // A fresh tools instance does not inherit the approval.
    const rec2 = recorder(false);
    const fresh = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec2.approve,
    });
    await rejectsTool(
      fresh.WriteFile.execute({ path: "a.txt", content: "z" }),
      "a.txt",
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "A\n");
  });
});

Deno.test("createTools() a per-call cwd resolves paths for all three file tools, outside still asked", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.mkdir(join(ws, "sub"));
    await Deno.writeTextFile(join(ws, "sub/a.txt"), "in sub\n");
    await Deno.writeTextFile(join(out, "o.txt"), "outside\n");
    const rec = recorder(false);
    const tools = createTools({
      cwd: ws,
      permissionMode: "acceptEdits",
      approve: rec.approve,
    });
    assert.equal(
      (await tools.ReadFile.execute({ path: "a.txt", cwd: "sub" })).content,
      "in sub\n",
    );
    await tools.WriteFile.execute({
      path: "b.txt",
      content: "b\n",
      cwd: "sub",
    });
    assert.equal(await Deno.readTextFile(join(ws, "sub/b.txt")), "b\n");
    await tools.EditFile.execute({
      path: "b.txt",
      oldText: "b",
      newText: "B",
      cwd: "sub",
    });
    assert.equal(await Deno.readTextFile(join(ws, "sub/b.txt")), "B\n");
    assert.equal(rec.requests.length, 0);
    await rejectsTool(
      tools.ReadFile.execute({ path: "o.txt", cwd: out }),
      "o.txt",
    );
    await rejectsTool(
      tools.WriteFile.execute({ path: "o.txt", content: "x", cwd: out }),
      "o.txt",
    );
    assert.equal(rec.requests.length, 2);
    assert.ok(
      rec.requests.every((c) =>
        c.outsideWorkspace && c.path === join(out, "o.txt")
      ),
    );
    assert.equal(await Deno.readTextFile(join(out, "o.txt")), "outside\n");
  });
});

Deno.test("createTools() approval descriptions show a command's or path's control characters escaped", async () => {
  await withDirs(async ({ ws }) => {
    const rec = answering();
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
});

Deno.test("createTools() approval of a path through a symlink out of the workspace shows where it really leads", async () => {
  await withDirs(async ({ ws, out }) => {
    await plantLink(ws, out);
    const rec = answering();
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
});

Deno.test("createTools() does not write through a file swapped for an outside symlink while its approval is pending", async () => {
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
});

Deno.test("createTools() asks as outside for file:// with %2e%2e, ~/.., //..// and a symlinked folder, in every file tool", async () => {
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
      const rec = answering();
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

Deno.test("createTools() readOnly refuses writes, edits and unsandboxed Shell without asking, even after an earlier 'always'", async () => {
  await withDirs(async ({ ws }) => {
    const rec = answering("always", "always");
    const tools = createTools({
      sandbox: "off",
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
