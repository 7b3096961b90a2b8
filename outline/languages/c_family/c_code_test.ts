// codeOnly(): C, C++ and Objective-C text with comments and literal contents
// blanked, every offset and line break kept, in linear time.
import assert from "node:assert/strict";
import {
  assertBlankedOnly,
  randomTexts,
} from "../../../tests/support/blanked_text.ts";
import { elapsedMs } from "../../../tests/support/elapsed.ts";
import { codeOnly } from "./c_code.ts";
import { blankObjc } from "./_objc.ts";

Deno.test("codeOnly() blanks comments and literal contents, keeping every offset", () => {
  const cases: [string, string][] = [
    ['a = @"image/*"; /* c */ b', 'a = @"       ";         b'],
    ['open(@"http://x") { // }', 'open(@"        ") {     '],
    ["c = '{'; s = \"}\";", "c = ' '; s = \" \";"],
    ['s = "a\\"b"; t', 's = "    "; t'],
    ['s = "a\\\\"; { t', 's = "   "; { t'],
    // Unclosed: a literal ends with its line, a block comment with the text.
    ['s = "open\nnext {', 's = "    \nnext {'],
    ["a /* open\n b { */ c\nd", "a        \n        c\nd"],
  ];
  for (const [text, expected] of cases) {
    const code = codeOnly(text);
    assert.equal(code, expected, text);
    assert.equal(code.length, text.length);
  }
});

Deno.test("codeOnly() blanks C++ raw strings whatever they hold, and reads an unclosed one as a plain string", () => {
  assert.equal(
    codeOnly('s = R"x(a "b" /* c)x"; d'),
    `s = R"x(${" ".repeat('a "b" /* c'.length)})x"; d`,
  );
  assert.equal(codeOnly('s = R"(open\nnext'), 's = R"     \nnext');
  // Twenty thousand unclosed openings cost one search each for their end.
  const many = 'R"('.repeat(20_000);
  assert.equal(codeOnly(many).length, many.length);
});

Deno.test("codeOnly() takes linear time on many distinct unclosed raw strings", () => {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < 200_000; i++) {
    lines.push(`R"${i.toString(36)}()x)\n`);
    size += lines.at(-1)!.length;
  }
  const text = lines.join("");
  const ms = elapsedMs(() => codeOnly(text));
  assert.ok(ms < 1000, `${ms.toFixed(0)} ms`);
});

Deno.test("codeOnly() keeps length and line breaks on random raw strings, prefixes and long delimiters", () => {
  const pieces = [
    'R"',
    'u8R"',
    'LR"',
    'uR"',
    'xR"',
    '"',
    "'",
    "(",
    ")",
    "abcdefghijklmnopq",
    "d",
    ')d"',
    ')"',
    "\\",
    "\n",
    "\r\n",
    "/*",
    "*/",
    "//",
    "1'000",
    " ",
    "@end",
    "@interface A",
    "NS_A(x)",
    "#define X \\",
    "{",
    "}",
    "😀",
  ];
  for (const text of randomTexts(pieces, { seed: 11, count: 1500, most: 30 })) {
    // Every character stays or becomes a space; line breaks stay.
    for (const out of [codeOnly(text), blankObjc(text)]) {
      assertBlankedOnly(out, text);
    }
  }
  assert.equal(codeOnly('u8R"x(a/*b)x" /* c */'), 'u8R"x(    )x"        ');
  assert.equal(codeOnly('LR"(a")" // c'), 'LR"(  )"     ');
  // After an identifier, R is a name and the string a plain one.
  assert.equal(codeOnly('xR"(a)" b'), 'xR"   " b');
  // A 17-character delimiter is no raw string: a plain one to the line's end.
  assert.equal(
    codeOnly('R"abcdefghijklmnopq(a)abcdefghijklmnopq" /*x*/\nint f;'),
    'R"' + " ".repeat(37) + '"      \nint f;',
  );
  assert.equal(codeOnly('"a\\\nb" /*x*/ c'), '"  \n "       c');
  assert.equal(codeOnly('R"(\n/*\n)" int f;'), 'R"(\n  \n)" int f;');
});
