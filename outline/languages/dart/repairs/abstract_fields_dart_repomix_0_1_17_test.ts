// blankAbstractFields(): what it blanks and what the Dart grammar then reads.
import assert from "node:assert/strict";
import { blankAbstractFields } from "./abstract_fields_dart_repomix_0_1_17.ts";
import { findSyntaxErrors } from "../../../syntax_errors.ts";
import {
  lines,
  testExtract,
} from "../../../../tests/support/outline_languages.ts";
import { dart } from "../dart.ts";

const FIELDS = lines(
  "abstract class Platform {",
  "  abstract final bool isAndroid;",
  "  abstract int count;",
  "  abstract (int, int) size;",
  "  external final int handle;",
  "  external static final int version;",
  "  external void close();",
  "}",
);

Deno.test("blankAbstractFields() blanks abstract and external's final on fields, keeping every offset", () => {
  const blanked = blankAbstractFields(FIELDS);
  assert.equal(blanked.length, FIELDS.length);
  assert.deepEqual(blanked.split("\n").slice(1, 7), [
    "           final bool isAndroid;",
    "           int count;",
    "           (int, int) size;",
    "  external       int handle;",
    "  external static       int version;",
    "  external void close();",
  ]);
});

Deno.test("blankAbstractFields() leaves abstract classes with their modifiers", () => {
  const text = lines(
    "abstract class A {}",
    "abstract final class B {}",
    "  abstract base class C {}",
    "  abstract interface class D {}",
  );
  assert.equal(blankAbstractFields(text), text);
});

Deno.test("a Dart class with abstract and external final fields has no syntax error", async () => {
  const found = await findSyntaxErrors("/tmp/abstract_fields.dart", {
    newText: FIELDS,
  });
  assert.equal(found?.after, 0, JSON.stringify(found?.added));
});

testExtract(dart, [{
  name: "dart.extract() lists abstract and external final fields",
  text: FIELDS,
  outline: [
    "class Platform 1-8",
    "    field isAndroid 2-2",
    "    field count 3-3",
    "    field size 4-4",
    "    field handle 5-5",
    "    field version 6-6",
    "    method close 7-7",
  ],
}]);
