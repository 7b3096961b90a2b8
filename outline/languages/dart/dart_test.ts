// The Dart outline: dart.extract() on fixtures and snippets: types with
// members, functions over their bodies, operators, dartdoc directives.
import {
  lines,
  testExtract,
  testFixture,
} from "../../../tests/support/outline_languages.ts";
import { dart } from "./dart.ts";

testFixture(dart, {
  name:
    "dart.extract() lists types with members and functions spanning their bodies",
  file: "sample.dart",
  outline: [
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
  ],
});

testExtract(dart, [
  {
    name:
      "dart.extract() finds a class doc after its annotation and an abstract method's range",
    text: [
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
    ].join("\n"),
    outline: [
      "class Value 1-10 // A value.",
      "    method read 5-8 // Reads it.",
      "    method reset 9-9",
    ],
  },
  {
    name: "dart.extract() skips a {@template} line to the summary",
    text: lines(
      "/// {@template flutter.widgets.text}",
      "/// A run of text with a single style.",
      "/// {@endtemplate}",
      "class Text extends StatelessWidget {",
      "  /// {@macro flutter.widgets.text}",
      "  const Text(this.data);",
      "",
      "  /// {@tool snippet}",
      "  /// Builds the text.",
      "  /// {@end-tool}",
      "  Widget build(BuildContext context) => this;",
      "}",
    ),
    outline: [
      "class Text 4-12 // A run of text with a single style.",
      "    constructor Text 6-6",
      "    method build 11-11 // Builds the text.",
    ],
  },
  {
    name: "dart.extract() names the [], []= and ~ operators",
    text: lines(
      "class JsonMap<V> {",
      "  V? operator [](String key) => null;",
      "  void operator []=(String key, V value) {}",
      "  JsonMap<V> operator ~() => this;",
      "}",
    ),
    outline: [
      "class JsonMap 1-5",
      "    operator [] 2-2",
      "    operator []= 3-3",
      "    operator ~ 4-4",
    ],
  },
  {
    name: "dart.extract() names a class declared as a mixin application",
    text: lines(
      "class Reader = Object with Buffered;",
      "abstract class Store = Base with Cached, Logged implements Closeable;",
    ),
    outline: ["class Reader 1-1", "class Store 2-2"],
  },
]);
