// createAgent() options that shape what the model gets: the project's
// AGENTS.md in the instructions (or not), and the rg tool with ripgrep installed.
import assert from "node:assert/strict";
import { ignoreWithout } from "../tests/support/has.ts";
import { withWorkspace, writeFiles } from "../tests/support/workspace.ts";
import { createAgent } from "./agent.ts";
import type { AgentOptions } from "./types.ts";

/** The system prompt of the first request a run with `options` sends. */
async function systemPromptOf(
  options: Omit<AgentOptions, "model">,
): Promise<string> {
  const bodies: { messages: { role: string; content: string }[] }[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)));
    return await Promise.resolve(Response.json({
      choices: [{ message: { role: "assistant", content: "ok" } }],
    }));
  };
  const agent = createAgent({ model: "m", fetch, ...options });
  await agent.run("hello");
  return bodies[0].messages.find((m) => m.role === "system")!.content;
}

Deno.test("createAgent() puts the workspace's AGENTS.md into the instructions unless projectInstructions is false", async () => {
  await withWorkspace(async (cwd) => {
    await writeFiles(cwd, { "AGENTS.md": "Always answer in haiku." });
    const read = await systemPromptOf({ cwd });
    assert.match(
      read,
      /Instructions from .*AGENTS\.md:\nAlways answer in haiku\./,
    );
    const none = await systemPromptOf({ cwd, projectInstructions: false });
    assert.doesNotMatch(none, /haiku/);
    const given = await systemPromptOf({
      cwd,
      projectInstructions: [{
        path: "/x/AGENTS.md",
        shown: "AGENTS.md",
        text: "Given text.",
      }],
    });
    assert.match(given, /Instructions from \/x\/AGENTS\.md:\nGiven text\./);
    assert.doesNotMatch(given, /haiku/);
  });
});

Deno.test({
  name: "createAgent() offers the rg tool when ripgrep is installed",
  ignore: ignoreWithout("rg"),
  fn: () => {
    const agent = createAgent({ model: "m", cwd: Deno.cwd() });
    assert.equal(agent.tools.get("rg")?.kind, "search");
    assert.ok(agent.tools.has("search"));
  },
});
