// The permission mode table end to end, through the real tools: who may read
// and write inside and outside the workspace, what is asked, and what
// "always" remembers.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, ToolError } from "../mod.ts";
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
            else assert.match(result, /Refused/, label);
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
      const requests: PermissionRequest[] = [];
      const tools = createTools({
        cwd: ws,
        permissionMode: "acceptEdits",
        approve: (request) => {
          requests.push(request);
          return false;
        },
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
    const requests: PermissionRequest[] = [];
    const tools = createTools({
      cwd: ws,
      permissionMode: "acceptEdits",
      approve: (request) => {
        requests.push(request);
        return false;
      },
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
