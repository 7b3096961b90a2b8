// codeOnly(): C-family text with comments and literal contents blanked.
import assert from "node:assert/strict";
import { codeOnly } from "./c_code.ts";

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
