// fileOutline() and outlineSymbols(), the public face of the outline engine:
// their options, paths, line counts and the errors they give.
import assert from "node:assert/strict";
import { fileOutline, outlineSymbols } from "./outline.ts";

const FIXTURES = new URL("../tests/fixtures/outline/", import.meta.url)
  .pathname;

Deno.test("outlineSymbols() and fileOutline() refuse a negative or NaN parseBudgetMs and a negative maxSymbols", async () => {
  for (const parseBudgetMs of [-1, Number.NaN]) {
    await assert.rejects(
      outlineSymbols("sample.ts", { cwd: FIXTURES, parseBudgetMs }),
      (error: Error) => {
        assert.doesNotMatch(error.message, /took longer/);
        assert.match(error.message, /parseBudgetMs/);
        return true;
      },
      String(parseBudgetMs),
    );
  }
  await assert.rejects(
    fileOutline("sample.ts", { cwd: FIXTURES, maxSymbols: -3 }),
    /maxSymbols/,
  );
});
