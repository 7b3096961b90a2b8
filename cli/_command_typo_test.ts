import assert from "node:assert/strict";
import { editDistance, likelyCommandTypo } from "./_command_typo.ts";

const COMMANDS = ["run", "outline", "mcp", "acp", "help"];

Deno.test("likelyCommandTypo() catches a near miss of a command name", () => {
  assert.equal(likelyCommandTypo("outlin", COMMANDS), "outline");
  assert.equal(likelyCommandTypo("outside", COMMANDS), undefined);
  assert.equal(likelyCommandTypo("otuline", COMMANDS), "outline");
  assert.equal(likelyCommandTypo("mpc", COMMANDS), "mcp");
  assert.equal(likelyCommandTypo("acpp", COMMANDS), "acp");
  assert.equal(likelyCommandTypo("Outline", COMMANDS), "outline");
});

Deno.test("likelyCommandTypo() leaves prompts and commands alone", () => {
  for (
    const word of [
      "refactor",
      "hello",
      "explain",
      "add",
      "fix",
      "outline",
      "mcp",
      "README.md",
      "src/",
      "what is this?",
    ]
  ) {
    assert.equal(likelyCommandTypo(word, COMMANDS), undefined, word);
  }
});

Deno.test("editDistance() counts a swap of neighbours as one edit", () => {
  assert.equal(editDistance("mpc", "mcp"), 1);
  assert.equal(editDistance("outlin", "outline"), 1);
  assert.equal(editDistance("add", "acp"), 2);
  assert.equal(editDistance("", "run"), 3);
});
