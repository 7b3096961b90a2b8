// requiredLiteral(): only text every match holds, or nothing.
import assert from "node:assert/strict";
import { requiredLiteral } from "./_required_literal.ts";

Deno.test("requiredLiteral() picks the longest plain run outside groups, classes and optional characters", () => {
  assert.equal(requiredLiteral("zqxj[A-Z]+MATCH\\w*kw"), "MATCH");
  assert.equal(requiredLiteral("function\\s+(\\w+)\\("), "function");
  assert.equal(requiredLiteral("colou?r"), "colo");
  assert.equal(requiredLiteral("a.b{2,3}cdef"), "cdef");
  assert.equal(requiredLiteral("import\\.meta"), "import.meta");
  assert.equal(requiredLiteral("ab+cd"), "ab");
  assert.equal(requiredLiteral("x(?!needle)y"), "x");
  assert.equal(requiredLiteral("[]abc]xy"), "xy");
});

Deno.test("requiredLiteral() vouches for nothing in alternations, case-blind or opaque escapes", () => {
  for (
    const source of [
      "foo|bar",
      "(?i)needle",
      "\\x41BC",
      "\\u0041BC",
      "\\p{L}abc",
      "(a)\\1bc",
      "\\w+",
      ".*",
    ]
  ) {
    assert.equal(requiredLiteral(source), undefined, source);
  }
});
