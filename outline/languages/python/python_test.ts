// The Python outline: python.extract() on snippets and Python files through
// fileOutline() / outlineSymbols(): docstrings as Python reads them, class
// members, new syntax, ranges, and what parses around a spot that does not.
import assert from "node:assert/strict";
import {
  fileOutlineLines,
  lines,
  outlineFile,
  testExtract,
  testOutlines,
} from "../../../tests/support/outline_languages.ts";
import { python } from "./python.ts";

// `(a.\n    b)` with a dedent is valid Python that tree-sitter cannot read
// here: it wraps the whole module in an ERROR node.
const UNREADABLE_METHOD = [
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
];

Deno.test("outlineSymbols() still lists Python symbols when the grammar fails on one spot", async () => {
  const { symbols } = await outlineFile(
    "m.py",
    lines(
      "import os",
      "",
      "",
      "class T:",
      ...UNREADABLE_METHOD,
      "",
      "def last():",
      "    pass",
    ),
  );
  const names = symbols.map((s) => `${s.kind} ${s.name} ${s.startLine}`);
  assert.ok(names.includes("import os 1"), names.join("; "));
  assert.ok(names.includes("class T 4"), names.join("; "));
});

testExtract(python, [
  {
    name:
      "python.extract() names what a relative import from a package brings in",
    text: [
      "from . import x",
      "from .. import a, b as c",
      "from .mod import y",
      "from . import *",
      "",
    ].join("\n"),
    outline: [
      "import .x 1-1",
      "import ..a, ..b as c 2-2",
      "import .mod 3-3",
      "import .* 4-4",
    ],
  },
  {
    name:
      "python.extract() lists module variables, not those of a function or a __main__ block",
    text: [
      "NAME = 1",
      "A = B = 2",
      "c, d = 3, 4",
      "t: int = 0",
      'os.environ["x"] = "1"',
      "try:",
      "    import fast as impl",
      "except ImportError:",
      "    impl = None",
      "def f():",
      "    local = 1",
      'if __name__ == "__main__":',
      "    args = 1",
      "",
    ].join("\n"),
    outline: [
      "var NAME 1-1",
      "var A 2-2",
      "var B 2-2",
      "var c 3-3",
      "var d 3-3",
      "var t 4-4",
      "import fast as impl 7-7",
      "var impl 9-9",
      "def f 10-11",
    ],
  },
  {
    name:
      "python.extract() reads docstrings as Python does: escapes, concatenation, parentheses",
    text: [
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
    ].join("\n"),
    outline: [
      "def a 1-2 // A ¶ \\n",
      "def b 3-4 // \\x41",
      "def c 5-8 // One two three",
      "def d 9-10 // nested",
      "def e 11-12",
      "def f 13-14",
      "def g 15-16",
    ],
  },
  {
    name:
      "python.extract() lists __future__ imports, type aliases and every name of a chained field",
    text: [
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
    ].join("\n"),
    outline: [
      "import __future__ 1-1",
      "type Vector 2-2",
      "type Pair 3-3",
      "type Maybe 5-5",
      "class A 6-10",
      "    field a 7-7",
      "    field b 7-7",
      "    field c 7-7",
      "    field p 8-8",
      "    field q 8-8",
      "    field r 8-8",
      "    type Inner 9-9",
      "    field x 10-10",
      "def f 11-13",
    ],
  },
  {
    name:
      "python.extract() lists what parsed around a spot the grammar cannot read",
    text: ["import os", "class T:", ...UNREADABLE_METHOD].join("\n"),
    outline: [
      "import os 1-1",
      "class T 2-6",
      // Cut from its class by the error: what parsed, not what was meant.
      "def after 10-11",
    ],
  },
  {
    name:
      "python.extract() lists methods defined under if/else in a class body",
    text: [
      "class Popen:",
      "    def poll(self):",
      "        pass",
      "",
      "    if _mswindows:",
      "        def terminate(self):",
      '            """Terminates the process."""',
      "    else:",
      "        def kill(self):",
      "            pass",
    ].join("\n") + "\n",
    outline: [
      "class Popen 1-10",
      "    method poll 2-3",
      "    method terminate 6-7 // Terminates the process.",
      "    method kill 9-10",
    ],
  },
]);

testOutlines(({ file, text }) => fileOutlineLines(file!, text), [
  {
    name: "fileOutline() decodes escape sequences in a Python docstring",
    file: "m.py",
    text: String.raw`def split():
    """Split at "\\n" marks."""


def pilcrow():
    """\u00b6 marks a paragraph."""


def joined():
    """Joins a line ending in \
a backslash."""
`,
    outline: [
      'def split (lines 1-2)  // Split at "\\n" marks.',
      "def pilcrow (lines 5-6)  // ¶ marks a paragraph.",
      "def joined (lines 9-11)  // Joins a line ending in a backslash.",
    ],
  },
  {
    name: "fileOutline() keeps a Python docstring's leading * and # text",
    file: "m.py",
    text: [
      "def load_module():",
      '    """**DEPRECATED**"""',
      "",
      "",
      "def retries():",
      '    """# of retries before giving up."""',
      "",
    ].join("\n"),
    outline: [
      "def load_module (lines 1-2)  // **DEPRECATED**",
      "def retries (lines 5-6)  // # of retries before giving up.",
    ],
  },
  {
    name:
      "fileOutline() shows a Python docstring that starts with a decorator's name",
    file: "m.py",
    text: [
      "def contextmanager(func):",
      '    """@contextmanager decorator.',
      "",
      "    Typical usage:",
      '    """',
      "",
    ].join("\n"),
    outline: [
      "def contextmanager (lines 1-5)  // @contextmanager decorator.",
    ],
  },
  {
    name:
      "fileOutline() reads concatenated and parenthesised Python docstrings",
    file: "m.py",
    text: [
      "def concat():",
      '    "Test a venv " "made from a zip."',
      "",
      "",
      "def paren():",
      '    ("Long docs are often "',
      '     "written this way.")',
      "",
    ].join("\n"),
    outline: [
      "def concat (lines 1-2)  // Test a venv made from a zip.",
      "def paren (lines 5-7)  // Long docs are often written this way.",
    ],
  },
  {
    name: "fileOutline() lists a Python __future__ import",
    file: "m.py",
    text: "from __future__ import annotations\nimport os\n",
    outline: [
      "import __future__ (line 1)",
      "import os (line 2)",
    ],
  },
  {
    name: "fileOutline() lists every name of a chained class attribute",
    file: "m.py",
    text: "class Pdb:\n    do_c = do_cont = do_continue = None\n",
    outline: [
      "class Pdb (lines 1-2)",
      "    field do_c (line 2)",
      "    field do_cont (line 2)",
      "    field do_continue (line 2)",
    ],
  },
  {
    name: "fileOutline() lists a Python 3.12 type alias",
    file: "m.py",
    text: "type Vector = list[float]\ntype Pair[T] = tuple[T, T]\n",
    outline: [
      "type Vector (line 1)",
      "type Pair (line 2)",
    ],
  },
  {
    name:
      "fileOutline() outlines Python 3.10-3.12 syntax: match, walrus, nested f-strings, PEP 695 generics, PEP 614 decorators",
    file: "m.py",
    text: [
      "import os", // 1
      "", // 2
      "", // 3
      "def first[T](xs: list[T]) -> T:", // 4
      '    """First item."""', // 5
      "    match xs:", // 6
      "        case [x, *_]:", // 7
      "            return x", // 8
      "", // 9
      "", // 10
      "class Box[T: (int, str), *Ts, **P]:", // 11
      "    # a comment before the docstring", // 12
      '    """A box."""', // 13
      "    item: T", // 14
      "", // 15
      "    @buttons[0].clicked.connect", // 16
      "    async def get[U](self, u: U) -> T:", // 17
      "        return self.item", // 18
      "", // 19
      "", // 20
      "if (n := len(os.sep)) > 0:", // 21
      "    s = f\"{f\"{'\\n'.join(['a'])}\"}\"", // 22
      "    def walrus():", // 23
      "        '''", // 24
      "        Doc on its second line.", // 25
      "        '''", // 26
      "", // 27
      "", // 28
      "match = 1", // 29
      "", // 30
      "", // 31
      "def after():", // 32
      "    pass", // 33
      "",
    ].join("\n"),
    outline: [
      "import os (line 1)",
      "def first (lines 4-8)  // First item.",
      "class Box (lines 11-18)  // A box.",
      "    field item (line 14)",
      "    method get (lines 16-18)",
      "var s (line 22)",
      "def walrus (lines 23-26)  // Doc on its second line.",
      "var match (line 29)",
      "def after (lines 32-33)",
    ],
  },
  {
    name:
      "fileOutline() ends a Python range at the last statement or a comment indented inside the body",
    file: "m.py",
    text: [
      "class A:", // 1
      "    def f(self):", // 2
      "        pass", // 3
      "        # inside f", // 4
      "", // 5
      "    # class level, after f", // 6
      "", // 7
      "# column zero", // 8
      "def g():", // 9
      "    pass", // 10
      "    # inside g", // 11
      "# column zero, after g", // 12
      "",
    ].join("\n"),
    outline: [
      "class A (lines 1-6)",
      "    method f (lines 2-4)",
      "def g (lines 9-11)",
    ],
  },
  {
    name:
      "fileOutline() keeps Python lines and docs right with CRLF, a BOM, tabs and astral characters",
    file: "m.py",
    text: "\uFEFF# 😀😀 注释\r\nclass Naïve:\r\n" +
      '\t"""Ünïcode doc 😀."""\r\n\tß = "😀"\r\n\r\n' +
      '\tdef größe(self):\r\n\t\t"""Größe 😀."""\r\n\x0c\r\ndef 函数():\r\n' +
      '\t"""函数 doc."""\r\n',
    outline: [
      "class Naïve (lines 2-7)  // Ünïcode doc 😀.",
      "    field ß (line 4)",
      "    method größe (lines 6-7)  // Größe 😀.",
      "def 函数 (lines 9-10)  // 函数 doc.",
    ],
  },
]);
