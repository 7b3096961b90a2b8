// The pieces of a session/update: prompt text, tool titles and locations, the
// paths and diffs a call proposes.
import assert from "node:assert/strict";
import {
  inputPath,
  promptText,
  proposedDiff,
  textContent,
  toolLocations,
  toolTitle,
} from "./_acp_updates.ts";

Deno.test("promptText() turns text, links and embedded resources into one prompt", () => {
  assert.equal(
    promptText([
      { type: "text", text: "Explain this:" },
      { type: "resource_link", name: "a.ts", uri: "file:///w/a.ts" },
      {
        type: "resource",
        resource: { uri: "file:///w/b.ts", text: "const b = 1;" },
      },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ]),
    [
      "Explain this:",
      "[a.ts](file:///w/a.ts)",
      '<context uri="file:///w/b.ts">\nconst b = 1;\n</context>',
      "[image content is not supported]",
    ].join("\n"),
  );
});

Deno.test("toolTitle() and toolLocations() describe a call for the editor", () => {
  assert.equal(toolTitle("EditFile", { path: "src/a.ts" }), "Edit src/a.ts");
  assert.equal(
    toolTitle("Shell", { command: "git", args: ["status", "-s"] }),
    "Run git status -s",
  );
  assert.equal(
    toolTitle("search", { pattern: "load", path: "src" }),
    'Search "load" in src',
  );
  assert.equal(toolTitle("files__search", {}), "files__search");
  assert.deepEqual(
    toolLocations("ReadFile", { path: "a.ts", line: 40 }, "/w"),
    [
      { path: "/w/a.ts", line: 40 },
    ],
  );
  assert.deepEqual(toolLocations("Shell", { command: "ls" }, "/w"), []);
});

Deno.test("inputPath() and proposedDiff() resolve paths the way the tools do", () => {
  assert.equal(inputPath({ path: "a.ts", cwd: "sub" }, "/w"), "/w/sub/a.ts");
  assert.equal(inputPath({ path: "/abs/a.ts" }, "/w"), "/abs/a.ts");
  assert.equal(inputPath({ path: "file:///x/a%20b.ts" }, "/w"), "/x/a b.ts");
  assert.deepEqual(
    proposedDiff(
      "EditFile",
      { path: "a.ts", oldText: "x", newText: "y" },
      "/w",
    ),
    { type: "diff", path: "/w/a.ts", oldText: "x", newText: "y" },
  );
  assert.deepEqual(
    proposedDiff("WriteFile", { path: "n.ts", content: "new" }, "/w"),
    { type: "diff", path: "/w/n.ts", oldText: null, newText: "new" },
  );
  assert.equal(proposedDiff("ReadFile", { path: "a.ts" }, "/w"), undefined);
  const long = textContent("x".repeat(30_000));
  assert.equal(long.type, "content");
  assert.match(JSON.stringify(long), /10000 more characters/);
});
