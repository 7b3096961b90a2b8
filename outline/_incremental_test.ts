import assert from "node:assert/strict";
import { textEdit } from "./_incremental.ts";

Deno.test("textEdit() spans the replaced text between the common prefix and suffix", () => {
  assert.deepEqual(textEdit("ab\ncd\nef", "ab\ncXYd\nef"), {
    startIndex: 4,
    oldEndIndex: 4,
    newEndIndex: 6,
    startPosition: { row: 1, column: 1 },
    oldEndPosition: { row: 1, column: 1 },
    newEndPosition: { row: 1, column: 3 },
  });
  // The common prefix runs into "t" of "two"/"three".
  assert.deepEqual(textEdit("one\ntwo\nthree\n", "one\nthree\n"), {
    startIndex: 5,
    oldEndIndex: 9,
    newEndIndex: 5,
    startPosition: { row: 1, column: 1 },
    oldEndPosition: { row: 2, column: 1 },
    newEndPosition: { row: 1, column: 1 },
  });
});

Deno.test("textEdit() never splits a surrogate pair", () => {
  // "😀" and "😃" share their high surrogate.
  const edit = textEdit("a😀b", "a😃b");
  assert.equal(edit.startIndex, 1);
  assert.equal(edit.oldEndIndex, 3);
  assert.equal(edit.newEndIndex, 3);
});

Deno.test("textEdit() finds the change in a large text to the character", () => {
  const before = "x".repeat(100_003);
  const after = `${before.slice(0, 54_321)}Y${before.slice(54_322)}`;
  const edit = textEdit(before, after);
  assert.deepEqual(
    [edit.startIndex, edit.oldEndIndex, edit.newEndIndex],
    [54_321, 54_322, 54_322],
  );
  assert.deepEqual(textEdit(before, `${before}z`).startIndex, 100_003);
  assert.deepEqual(textEdit(`a${before}`, before).oldEndIndex, 1);
});
