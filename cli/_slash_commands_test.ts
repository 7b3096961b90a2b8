// runCommand() and usageLine(): the interactive session's commands, answered
// without the model, and the line shown after each answer.
import assert from "node:assert/strict";
import {
  type CommandContext,
  runCommand,
  usageLine,
} from "./_slash_commands.ts";
import type { Agent } from "../agent/types.ts";

function context(): CommandContext & { out: string[]; saves: number } {
  const agent = {
    model: "m",
    permissionMode: "ask",
    contextUse: () => Promise.resolve({ tokens: 2_500, limit: 100_000 }),
    compact: () =>
      Promise.resolve({
        type: "context-summarized",
        messages: 6,
        tokensBefore: 12_000,
        tokensAfter: 900,
        usage: {},
        summary: "S",
      }),
  } as unknown as Agent;
  const result = {
    agent,
    out: [] as string[],
    saves: 0,
    write: (text: string) => result.out.push(text),
    cancellable: <T>(fn: (signal: AbortSignal) => Promise<T>) =>
      fn(new AbortController().signal),
    reset: () => Promise.resolve(),
    save: () => {
      result.saves++;
      return Promise.resolve();
    },
    spent: { inputTokens: 1_234, outputTokens: 56 },
  };
  return result;
}

Deno.test("runCommand() shows and switches the model and the permission mode", async () => {
  const ctx = context();
  assert.equal(await runCommand("/model", ctx), "done");
  assert.equal(ctx.out.pop(), "model: m\n");
  assert.equal(await runCommand("/model  big-model ", ctx), "done");
  assert.equal(ctx.agent.model, "big-model");
  assert.equal(ctx.saves, 1);
  await runCommand("/mode", ctx);
  assert.match(ctx.out.pop()!, /^permission mode: ask \(the modes: /);
  await runCommand("/mode allow", ctx);
  assert.equal(ctx.agent.permissionMode, "allow");
  await runCommand("/mode everything", ctx);
  assert.match(ctx.out.pop()!, /^unknown mode "everything": use one of /);
  assert.equal(ctx.agent.permissionMode, "allow");
});

Deno.test("runCommand() compacts, tells the tokens, and leaves other lines to the model", async () => {
  const ctx = context();
  await runCommand("/compact", ctx);
  assert.equal(
    ctx.out.pop(),
    "(summarized 6 messages: about 12k → 900 tokens)\n",
  );
  assert.equal(ctx.saves, 1);
  await runCommand("/tokens", ctx);
  assert.equal(
    ctx.out.pop(),
    "context 3% full (2.5k of 100k tokens); spent 1.2k in, 56 out\n",
  );
  assert.equal(await runCommand("/exit", ctx), "exit");
  assert.equal(await runCommand("/quit", ctx), "exit");
  assert.equal(await runCommand("/nope", ctx), "done");
  assert.match(
    ctx.out.pop()!,
    /^unknown command \/nope; the commands:\n\/model/,
  );
  assert.equal(await runCommand("/etc/hosts holds what?", ctx), "prompt");
  assert.equal(await runCommand("explain /model", ctx), "prompt");
});

Deno.test("usageLine() says the tokens in and out and how full the context is", () => {
  assert.equal(
    usageLine(
      { inputTokens: 11, outputTokens: 7 },
      { tokens: 45_000, limit: 100_000 },
    ),
    "11 in, 7 out · context 45% full (45k of 100k tokens)",
  );
  assert.equal(
    usageLine({}, { tokens: 10, limit: 1_000 }),
    "context 1% full (10 of 1k tokens)",
  );
});
