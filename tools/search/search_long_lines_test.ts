// search() and lines: a match far into one long line, and a pattern that
// spans a line break.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../create_tools.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";

Deno.test("search() finds, or says it skipped, a match past the first MiB of a long line", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(
      join(ws, "bundle.js"),
      `${"var a=1;".repeat(200_000)}function findMe(){}\n`,
    );
    const tools = createTools({ cwd: ws, permissionMode: "readOnly" });
    const result = await tools.search.execute({ pattern: "findMe" });
    const text = tools.search.toModelText(result);
    assert.ok(
      result.matches.length === 1 ||
        /long line|only in (?:its|their) first|in part|partly/i.test(text),
      text,
    );
  });
});

Deno.test("search() refuses a pattern with a line break instead of answering no matches", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(
      join(ws, "a.ts"),
      "function a() {\n  return 1;\n}\n",
    );
    const tools = createTools({ cwd: ws, permissionMode: "readOnly" });
    for (
      const input of [
        { pattern: "function a() {\n  return 1;" },
        { pattern: "a\\(\\) \\{\\n", regex: true },
      ]
    ) {
      const outcome = await tools.search.execute(input).then(
        (result) => ({ result }),
        (error: Error) => ({ error }),
      );
      if ("error" in outcome) {
        assert.match(outcome.error.message, /line/i, input.pattern);
      } else {
        // A multi-line match would do as well as a refusal.
        const { result } = outcome;
        assert.notEqual(
          result.matches.length,
          0,
          tools.search.toModelText(result),
        );
      }
    }
  });
});
