// agent.history and createAgent({ history }): a conversation saved as JSON and
// continued by another agent, against the scripted server over real HTTP.
import assert from "node:assert/strict";
import { join } from "node:path";
import { type AgentMessage, createAgent } from "../mod.ts";
import { contentText, startScriptedServer } from "./support/scripted_server.ts";
import { withWorkspace } from "./support/workspace.ts";

Deno.test("createAgent({ history }) goes on with a conversation another agent saved as JSON", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    await using server = startScriptedServer([{
      match: "Read the notes",
      replies: [
        { toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }] },
        { text: "They say 42." },
        { text: "You asked about the notes." },
      ],
    }]);
    const first = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
    });
    assert.equal(first.history.length, 0);
    await first.run("Read the notes");
    const saved = JSON.stringify(first.history);
    assert.deepEqual(
      first.history.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    // A copy: changing it changes nothing in the agent.
    first.history.pop();
    assert.equal(first.history.length, 4);

    const history: AgentMessage[] = JSON.parse(saved);
    const second = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      history,
    });
    assert.deepEqual(second.history, history);
    history.length = 0; // the agent kept its own copy
    const result = await second.run("What did I ask?");
    assert.equal(result.text, "You asked about the notes.");
    const sent = server.requests.at(-1)!.body.messages;
    assert.deepEqual(
      sent.map((m) => m.role),
      ["system", "user", "assistant", "tool", "assistant", "user"],
    );
    assert.match(
      contentText(sent[3].content) || String(sent[3].content),
      /the answer is 42/,
    );
    assert.equal(second.history.length, 6);
    second.reset();
    assert.deepEqual(second.history, []);
  });
});

Deno.test("createAgent({ history }) refuses a damaged conversation, naming the message", () => {
  assert.throws(
    () =>
      createAgent({
        model: "m",
        history: [
          { role: "user", content: "go" },
          {
            role: "tool",
            content: [{
              type: "tool-result",
              toolCallId: "x",
              toolName: "ReadFile",
              output: { type: "text", value: "" },
            }],
          },
        ],
      }),
    {
      name: "TypeError",
      message:
        'Cannot create the agent: "history" is not a conversation to go on with: message 1 answers call "x", which the assistant message before it did not make or another message answered; give what an agent\'s history gave',
    },
  );
  assert.throws(
    () =>
      createAgent({
        model: "m",
        history: "hello" as unknown as AgentMessage[],
      }),
    /"history" is not a conversation to go on with: it is not an array/,
  );
});

Deno.test("agent.reset() before the first run drops the history it was given", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "Fresh",
      replies: [{ text: "new" }],
    }]);
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      history: [{ role: "user", content: "old" }, {
        role: "assistant",
        content: "old answer",
      }],
    });
    agent.reset();
    await agent.run("Fresh start");
    const roles = server.requests[0].body.messages.map((m) => m.role);
    assert.deepEqual(roles, ["system", "user"]);
  });
});
