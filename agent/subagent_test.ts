import assert from "node:assert/strict";
import { ToolError } from "../internal/tool_error.ts";
import { createSubagent } from "./subagent.ts";

const task = (name: string) => ({ description: name, prompt: `do ${name}` });

Deno.test("Subagent starts every task at once and keeps one failure to itself", async () => {
  let running = 0;
  let peak = 0;
  const subagent = createSubagent(async (t) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 20));
    running--;
    if (t.description === "b") throw new Error("the model endpoint is down");
    return { text: `${t.description} done`, steps: 2 };
  });
  const result = await subagent.execute({
    tasks: [task("a"), task("b"), task("c")],
  });
  assert.equal(peak, 3);
  assert.deepEqual(result.tasks.map((t) => [t.description, t.status, t.text]), [
    ["a", "completed", "a done"],
    ["b", "failed", ""],
    ["c", "completed", "c done"],
  ]);
  assert.equal(result.tasks[1].error, "the model endpoint is down");
  const text = subagent.toModelText(result);
  assert.match(text, /^3 tasks: 2 completed, 1 failed/);
  assert.match(
    text,
    /## Task 2: b \(failed\)\nError: the model endpoint is down/,
  );
});

Deno.test("Subagent refuses no tasks, more than 8 tasks and empty prompts", async () => {
  const subagent = createSubagent(() =>
    Promise.resolve({ text: "", steps: 0 })
  );
  await assert.rejects(
    subagent.execute({ tasks: [] }),
    /Invalid input for Subagent: "tasks": give at least one task/,
  );
  const nine = Array.from({ length: 9 }, (_, i) => task(`t${i}`));
  await assert.rejects(
    subagent.execute({ tasks: nine }),
    /at most 8 tasks per call/,
  );
  await assert.rejects(
    subagent.execute({ tasks: [{ description: "x", prompt: "  " }] }),
    (error: unknown) =>
      error instanceof ToolError && /self-contained prompt/.test(error.message),
  );
});

Deno.test("Subagent passes an abort to every child and reports them cancelled", async () => {
  const seen: AbortSignal[] = [];
  const subagent = createSubagent((_task, { signal }) => {
    seen.push(signal);
    return new Promise((_, reject) =>
      signal.addEventListener("abort", () => reject(signal.reason))
    );
  });
  const controller = new AbortController();
  const pending = subagent.execute({ tasks: [task("a"), task("b")] }, {
    signal: controller.signal,
  });
  await new Promise((r) => setTimeout(r, 10));
  controller.abort();
  const result = await pending;
  assert.ok(seen.every((s) => s.aborted));
  assert.deepEqual(result.tasks.map((t) => t.status), [
    "cancelled",
    "cancelled",
  ]);
});
