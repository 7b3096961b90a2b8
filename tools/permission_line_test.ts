// The line of questions: one at a time, in the order calls started, an
// "always" answer covering the questions behind it, and no wait an aborted
// call cannot leave.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, ToolError } from "../mod.ts";
import { type GateRequest, PermissionGate } from "./permission.ts";
import type { PermissionAnswer, PermissionRequest } from "./types.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

function writeRequest(path: string): GateRequest {
  return {
    tool: "WriteFile",
    action: "write",
    path,
    outsideWorkspace: false,
    description: `Write "${path}"`,
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

Deno.test("PermissionGate asks one question at a time, in the order places were taken", async () => {
  const asked: string[] = [];
  let open = 0;
  let most = 0;
  const gate = new PermissionGate("ask", async (request) => {
    asked.push(request.path!);
    most = Math.max(most, ++open);
    await delay(10);
    open--;
    return true;
  });
  const turns = ["a", "b", "c"].map(() => gate.queueToAsk());
  // Checked in reverse: the places, not the checks, set the order.
  await Promise.all(
    ["c", "b", "a"].map((path) =>
      gate.check(writeRequest(path), { turn: turns["abc".indexOf(path)] })
    ),
  );
  assert.deepEqual(asked, ["a", "b", "c"]);
  assert.equal(most, 1);
});

Deno.test("PermissionGate does not ask what an 'always' answer given while it waited covers", async () => {
  const asked: string[] = [];
  const gate = new PermissionGate("ask", async (request) => {
    asked.push(request.path!);
    await delay(10);
    return "always" as const;
  });
  await Promise.all(
    ["a", "b", "c"].map((path) => gate.check(writeRequest(path))),
  );
  assert.deepEqual(asked, ["a"]);
});

Deno.test("PermissionGate does not ask the waiting questions after the mode is switched to allow", async () => {
  const asked: string[] = [];
  const gate: PermissionGate = new PermissionGate("ask", async (request) => {
    asked.push(request.path!);
    await delay(10);
    gate.mode = "allow"; // switched while the first question is answered
    return true;
  });
  await Promise.all(
    ["a", "b", "c"].map((path) => gate.check(writeRequest(path))),
  );
  assert.deepEqual(asked, ["a"]);
});

Deno.test("PermissionGate refuses the waiting writes after the mode is switched to readOnly", async () => {
  const asked: string[] = [];
  const gate: PermissionGate = new PermissionGate("ask", async (request) => {
    asked.push(request.path!);
    await delay(10);
    gate.mode = "readOnly";
    return true;
  });
  const results = await Promise.allSettled(
    ["a", "b"].map((path) => gate.check(writeRequest(path))),
  );
  assert.deepEqual(asked, ["a"]);
  assert.equal(results[0].status, "fulfilled");
  assert.equal(results[1].status, "rejected");
  const reason = (results[1] as PromiseRejectedResult).reason;
  assert.ok(reason instanceof ToolError);
  assert.match(
    reason.message,
    /Refused: Write "b": permission mode "readOnly"/,
  );
});

Deno.test("PermissionGate stops waiting for an approver that never answers when the call aborts, and asks the next", async () => {
  let asked = 0;
  const gate = new PermissionGate("ask", (): Promise<PermissionAnswer> => {
    asked++;
    return asked === 1 ? new Promise(() => {}) : Promise.resolve(true);
  });
  const controller = new AbortController();
  const stuck = gate.check(writeRequest("a"), { signal: controller.signal });
  const behind = new AbortController();
  const waiting = gate.check(writeRequest("b"), { signal: behind.signal });
  await delay(5);
  behind.abort(); // leaves the line without being asked
  await assert.rejects(waiting, (error) => {
    assert.ok(error instanceof ToolError);
    assert.match(error.message, /"b": the call was aborted before/);
    return true;
  });
  controller.abort();
  await assert.rejects(stuck, /"a": the call was aborted before/);
  await gate.check(writeRequest("c"));
  assert.equal(asked, 2);
});

Deno.test("createTools() asks the questions of parallel calls one at a time, in call order", async () => {
  await withWorkspace(async (dir) => {
    const asked: string[] = [];
    let open = 0;
    let most = 0;
    const approve = async (request: PermissionRequest) => {
      asked.push(request.description);
      most = Math.max(most, ++open);
      await delay(5);
      open--;
      return true;
    };
    const tools = createTools({ cwd: dir, permissionMode: "ask", approve });
    await Deno.writeTextFile(join(dir, "e.txt"), "old\n");
    await Promise.all([
      tools.WriteFile.execute({ path: "deep/er/w.txt", content: "w" }),
      tools.Shell.execute({ command: "true" }),
      tools.EditFile.execute({ path: "e.txt", oldText: "old", newText: "new" }),
      tools.WriteFile.execute({ path: "x.txt", content: "x" }),
    ]);
    assert.deepEqual(asked, [
      'Write 1 bytes to "deep/er/w.txt"',
      'Run "true"',
      'Edit "e.txt"',
      'Write 1 bytes to "x.txt"',
    ]);
    assert.equal(most, 1);
  });
});

Deno.test("createTools() a call aborted while its approval never comes frees its file and the line behind it", async () => {
  await withWorkspace(async (dir) => {
    let asked = 0;
    const stuck = createTools({
      cwd: dir,
      permissionMode: "ask",
      approve: () => {
        asked++;
        return new Promise<boolean>(() => {}); // the person walked away
      },
    });
    const controller = new AbortController();
    const options = { signal: controller.signal };
    const first = stuck.WriteFile.execute(
      { path: "a.txt", content: "1" },
      options,
    );
    // Queued behind the first: its file's turn, then its question.
    const second = stuck.EditFile.execute(
      { path: "a.txt", oldText: "1", newText: "2" },
      options,
    );
    const third = stuck.Shell.execute({ command: "true" }, options);
    while (asked === 0) await delay(5);
    controller.abort();
    await assert.rejects(first, /aborted/);
    await assert.rejects(second, /aborted/);
    await assert.rejects(third, /aborted/);
    assert.equal(asked, 1);
    // Another instance (another session) gets the file at once.
    const other = createTools({ cwd: dir, permissionMode: "allow" });
    await other.WriteFile.execute({ path: "a.txt", content: "other" });
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "other");
  });
});

Deno.test("createTools() a search aborted while waiting for its question leaves the line", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "needle\n");
    let asked = 0;
    const tools = createTools({
      cwd: dir,
      permissionMode: "ask",
      approve: () => {
        asked++;
        return new Promise<boolean>(() => {}); // never answered
      },
    });
    const controller = new AbortController();
    const options = { signal: controller.signal };
    const write = tools.WriteFile.execute(
      { path: "b.txt", content: "1" },
      options,
    );
    // readOnly would not ask; ask mode asks for an outside read only, so the
    // search reads outside to need a question of its own.
    const search = tools.search.execute(
      { pattern: "needle", path: "/" },
      options,
    );
    while (asked === 0) await delay(5);
    controller.abort();
    await assert.rejects(write, /aborted/);
    await assert.rejects(search, /aborted/);
    assert.equal(asked, 1);
  });
});
