// pythonStringValue(): a Python string literal's value, as Python decodes it.
import { equal } from "node:assert/strict";
import { pythonStringValue } from "./_python_string.ts";

Deno.test("pythonStringValue() decodes the escapes Python knows", () => {
  equal(pythonStringValue(String.raw`"a\\nb"`), "a\\nb");
  equal(pythonStringValue(String.raw`"a\nb\tc"`), "a\nb\tc");
  equal(pythonStringValue(String.raw`'it\'s \"x\"'`), `it's "x"`);
  equal(pythonStringValue(String.raw`"\a\b\f\r\v"`), "\x07\b\f\r\v");
  equal(pythonStringValue(String.raw`"\x41\u00b6\U0001F600"`), "A¶😀");
  equal(pythonStringValue(String.raw`"\101\0\1234"`), "A\0S4");
});

Deno.test("pythonStringValue() keeps escapes Python does not decode here as written", () => {
  // Unknown escapes stay (Python warns but keeps them); \N{...} needs the
  // Unicode name table; \U past U+10FFFF is a syntax error.
  equal(
    pythonStringValue(String.raw`"\d+ \N{BULLET} \x4"`),
    String.raw`\d+ \N{BULLET} \x4`,
  );
  equal(pythonStringValue(String.raw`"\U00110000"`), String.raw`\U00110000`);
});

Deno.test("pythonStringValue() joins a line ending in a backslash, also with CRLF", () => {
  equal(pythonStringValue('"""Joins \\\na line."""'), "Joins a line.");
  equal(pythonStringValue('"""Joins \\\r\na line."""'), "Joins a line.");
  equal(pythonStringValue('"""One\r\nTwo\rThree"""'), "One\nTwo\nThree");
});

Deno.test("pythonStringValue() takes raw strings as written and no value of bytes, f- or t-strings", () => {
  equal(pythonStringValue(String.raw`r"\n\d"`), String.raw`\n\d`);
  equal(pythonStringValue(String.raw`Rb"\n"`), undefined);
  equal(pythonStringValue(String.raw`u"\x41"`), "A");
  for (const literal of [`b"x"`, `f"{x}"`, `rf"x"`, `T"x"`, `Br'x'`]) {
    equal(pythonStringValue(literal), undefined, literal);
  }
});

Deno.test("pythonStringValue() reads empty, triple-quoted and cut-short literals", () => {
  equal(pythonStringValue(`""`), "");
  equal(pythonStringValue(`''''''`), "");
  equal(pythonStringValue(`'''a "b" c'''`), 'a "b" c');
  equal(pythonStringValue(`"""unterminated`), "unterminated");
  equal(pythonStringValue(`"""`), "");
  equal(pythonStringValue(`x`), undefined);
});
