import { deepStrictEqual } from "node:assert/strict";
import {
  extractText,
  fixtureLines,
  outlineLines,
} from "../../tests/support/outline_languages.ts";
import { dart } from "./dart.ts";

Deno.test("dart.extract() lists types with members and functions spanning their bodies", async () => {
  deepStrictEqual(await fixtureLines(dart, "sample.dart"), [
    "class Shape 7-28 // Something with an area.",
    "    getter area 9-9 // The area in square units.",
    "    field name 10-10",
    "    field count, limit 11-11",
    "    field maxSides 12-12",
    "    constructor Shape 14-14",
    "    constructor Shape.unnamed 15-15",
    "    constructor Shape.circle 16-16",
    "    method draw 19-22 // Draws the shape.",
    "    setter label 24-24",
    "    method load 25-25",
    "    operator == 26-26",
    "    method reset 27-27",
    "class Circle 31-41 // A round shape.",
    "    field radius 32-32",
    "    constructor Circle 34-34",
    "    getter area 36-37",
    "    method compareTo 39-40",
    "enum Planet 43-50",
    "    constant earth 45-45 // Our home.",
    "    constant mars 46-46",
    "    constructor Planet 48-48",
    "    field gravity 49-49",
    "mixin Named 52-54",
    "    method describe 53-53",
    "extension StringTools 56-58",
    "    method shout 57-57",
    "extension on int 60-62",
    "    getter doubled 61-61",
    "typedef Callback 64-64",
    "typedef LegacyCallback 65-65",
    "function main 68-70 // Entry point.",
    "function legacy 72-73",
    "getter greeting 75-75",
    "final version 76-76",
  ]);
});

Deno.test("dart.extract() finds a class doc after its annotation and an abstract method's range", async () => {
  const text = [
    "@immutable",
    "/// A value.",
    "class Value {",
    "  /// Reads it.",
    "  @override",
    "  int read() {",
    "    return 1;",
    "  }",
    "  void reset();",
    "}",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(dart, text)), [
    "class Value 1-10 // A value.",
    "    method read 5-8 // Reads it.",
    "    method reset 9-9",
  ]);
});
