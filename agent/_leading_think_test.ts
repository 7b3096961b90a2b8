import assert from "node:assert/strict";
import { leadingThinkMiddleware } from "./_leading_think.ts";

type Wrap = NonNullable<typeof leadingThinkMiddleware.wrapStream>;
type Options = Parameters<Wrap>[0];

// Runs text deltas of one text part through the middleware; what came out,
// reasoning and text apart, and the order of the part types.
async function through(deltas: string[]) {
  const parts = [
    { type: "text-start", id: "t" },
    ...deltas.map((delta) => ({ type: "text-delta", id: "t", delta })),
    { type: "text-end", id: "t" },
    { type: "finish" },
  ];
  const doStream = () =>
    Promise.resolve({
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    });
  const result = await leadingThinkMiddleware.wrapStream!(
    { doStream } as unknown as Options,
  );
  const out: { type: string; delta?: string }[] = [];
  for await (const part of result.stream) out.push(part as typeof out[0]);
  const join = (type: string) =>
    out.filter((p) => p.type === type).map((p) => p.delta).join("");
  return {
    reasoning: join("reasoning-delta"),
    text: join("text-delta"),
    types: [...new Set(out.map((p) => p.type))],
  };
}

/** The stream parts of a reasoning block, in order. */
const REASONING_PARTS = ["reasoning-start", "reasoning-delta", "reasoning-end"];

Deno.test("leadingThinkMiddleware moves an opening <think> block to reasoning, tags split anywhere", async () => {
  const whole = "\n<think>\nplan it\n</think>\n\nThe answer.";
  for (let cut = 1; cut < whole.length; cut++) {
    const out = await through([whole.slice(0, cut), whole.slice(cut)]);
    assert.equal(out.reasoning, "\nplan it\n", `cut at ${cut}`);
    assert.equal(out.text, "The answer.", `cut at ${cut}`);
  }
  const singles = await through([...whole]);
  assert.equal(singles.text, "The answer.");
  assert.deepEqual(singles.types, [
    ...REASONING_PARTS,
    "text-start",
    "text-delta",
    "text-end",
    "finish",
  ]);
});

Deno.test("leadingThinkMiddleware leaves a <think> that does not open the answer as text", async () => {
  const text = "Use `<think>` tags: <think>x</think> and <thin";
  const out = await through([text.slice(0, 9), text.slice(9)]);
  assert.equal(out.text, text);
  assert.equal(out.reasoning, "");
  // A text that only began like the tag, and ends there.
  assert.equal((await through(["<thi"])).text, "<thi");
});

Deno.test("leadingThinkMiddleware ends an unclosed think block as reasoning, with no empty text part", async () => {
  const out = await through(["<think>still thinking", " when cut"]);
  assert.equal(out.reasoning, "still thinking when cut");
  assert.equal(out.text, "");
  assert.deepEqual(out.types, [...REASONING_PARTS, "finish"]);
});
