// python.extract(): the symbols of Python files, through the real grammar.
import { deepStrictEqual } from "node:assert/strict";
import {
  extractText,
  outlineLines,
} from "../../../tests/support/outline_languages.ts";
import { python } from "./python.ts";

async function lines(source: string): Promise<string[]> {
  return outlineLines(await extractText(python, source));
}

Deno.test("python.extract() reads docstrings as Python does: escapes, concatenation, parentheses", async () => {
  deepStrictEqual(
    await lines([
      "def a():",
      '    "\\x41 \\u00b6 \\\\n"',
      "def b():",
      "    r'\\x41'",
      "def c():",
      '    ("One "  # a comment',
      "     # another",
      "     'two' u' three')",
      "def d():",
      '    (("nested"))',
      "def e():",
      '    "fixed " f"{x}"',
      "def f():",
      '    "a", "b"',
      "def g():",
      '    b"bytes"',
      "",
    ].join("\n")),
    [
      "def a 1-2 // A ¶ \\n",
      "def b 3-4 // \\x41",
      "def c 5-8 // One two three",
      "def d 9-10 // nested",
      "def e 11-12",
      "def f 13-14",
      "def g 15-16",
    ],
  );
});

Deno.test("python.extract() lists __future__ imports, type aliases and every name of a chained field", async () => {
  deepStrictEqual(
    await lines([
      "from __future__ import annotations, division as d",
      "type Vector = list[float]",
      "type Pair[T] = tuple[T, T]",
      "if True:",
      "    type Maybe[T] = T | None",
      "class A:",
      "    a = b = c = None",
      "    (p, q) = r = 1, 2",
      "    type Inner = int",
      "    x: int = 0",
      "def f():",
      "    type Local = int",
      "    from __future__ import x",
      "",
    ].join("\n")),
    [
      "import __future__ 1-1",
      "type Vector 2-2",
      "type Pair 3-3",
      "type Maybe 5-5",
      "class A 6-10",
      "    field a 7-7",
      "    field b 7-7",
      "    field c 7-7",
      "    field r 8-8",
      "    type Inner 9-9",
      "    field x 10-10",
      "def f 11-13",
    ],
  );
});

Deno.test("python.extract() lists what parsed around a spot the grammar cannot read", async () => {
  // `(a.\n    b)` with a dedent is valid Python that tree-sitter cannot
  // read here: it wraps the whole module in an ERROR node.
  const source = [
    "import os",
    "class T:",
    "    def weird(self):",
    "        (a.",
    "    b)",
    "        (a.",
    "    b(",
    "    ))",
    "",
    "    def after(self):",
    "        pass",
    "",
  ].join("\n");
  deepStrictEqual(await lines(source), [
    "import os 1-1",
    "class T 2-6",
    // Cut from its class by the error: what parsed, not what was meant.
    "def after 10-11",
  ]);
});
