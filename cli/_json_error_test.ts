// jsonSyntaxError(): the line, column and expectation of a JSON text's first error.
import assert from "node:assert/strict";
import { jsonSyntaxError } from "./_json_error.ts";

Deno.test("jsonSyntaxError() finds the first error's line and column", () => {
  assert.deepEqual(jsonSyntaxError('{\n  "a": 1,\n}'), {
    line: 3,
    column: 1,
    expected: "a quoted key",
  });
  assert.deepEqual(jsonSyntaxError('{"a" 1}'), {
    line: 1,
    column: 6,
    expected: '":"',
  });
  assert.deepEqual(jsonSyntaxError('{"a": [1 2]}'), {
    line: 1,
    column: 10,
    expected: '"," or "]"',
  });
  assert.equal(
    jsonSyntaxError('{"a": "x\n"}')?.expected,
    "a valid string character or escape",
  );
  assert.equal(jsonSyntaxError('{"a": tru}')?.expected, "a value");
  assert.equal(jsonSyntaxError("{} x")?.expected, "the end of the file");
});

Deno.test("jsonSyntaxError() passes valid JSON", () => {
  for (
    const text of [
      '{"a": [1, -2.5e3, true, null, "\\u00e9\\n"]}',
      " [] ",
      '"s"',
    ]
  ) {
    assert.equal(jsonSyntaxError(text), undefined, text);
    JSON.parse(text);
  }
});
