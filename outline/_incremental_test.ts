import assert from "node:assert/strict";
import { textEdit } from "./_incremental.ts";

/** An edit's end as [index, row, column]. */
type End = [index: number, row: number, column: number];

/** Asserts textEdit(before, after): its start, old end and new end. */
function assertEdit(
  before: string,
  after: string,
  [start, oldEnd, newEnd]: End[],
) {
  const point = ([, row, column]: End) => ({ row, column });
  assert.deepEqual(textEdit(before, after), {
    startIndex: start[0],
    oldEndIndex: oldEnd[0],
    newEndIndex: newEnd[0],
    startPosition: point(start),
    oldEndPosition: point(oldEnd),
    newEndPosition: point(newEnd),
  });
}

Deno.test("textEdit() spans the replaced text between the common prefix and suffix", () => {
  assertEdit("ab\ncd\nef", "ab\ncXYd\nef", [[4, 1, 1], [4, 1, 1], [6, 1, 3]]);
  // The common prefix runs into "t" of "two"/"three".
  assertEdit("one\ntwo\nthree\n", "one\nthree\n", [
    [5, 1, 1],
    [9, 2, 1],
    [5, 1, 1],
  ]);
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
