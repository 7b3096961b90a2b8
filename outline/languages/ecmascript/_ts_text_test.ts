import assert from "node:assert/strict";
import { prepareTypeScript } from "./_ts_text.ts";
import { restoreKeywordNames } from "./repairs/keyword_names_typescript_0_23_2.ts";
import type { OutlineSymbol } from "../../types.ts";
import { lines } from "../../../tests/support/outline_languages.ts";

Deno.test("prepareTypeScript() separates a generic call signature under a doc or a lone '<'", () => {
  const source = lines(
    "interface P {",
    "  (): S",
    "  /** Curried. */",
    "  <C>(recipe: C): C",
    "  // plain",
    "  <",
    "    T extends S = S,",
    "  >(): T",
    "}",
  );
  const text = prepareTypeScript(source);
  assert.equal(text.length, source.length);
  assert.deepEqual(text.split("\n").map((line) => line.trimStart()), [
    "interface P {",
    "(): S",
    "/** Curried. */",
    ";<C>(recipe: C): C",
    "// plain",
    ";<",
    "T extends S = S,",
    ">(): T",
    "}",
    "",
  ]);
});

Deno.test("prepareTypeScript() adds no ';' in a comment or after a line that ends no member", () => {
  const source = lines(
    "interface P {",
    "  <C>(recipe: C): C",
    "}",
    "/**",
    " * Example:",
    "  <T>(x: T): T",
    " */",
    "const a = [",
    "  <T>(x: T) => x,",
    "];",
  );
  assert.equal(prepareTypeScript(source), source);
});

Deno.test("prepareTypeScript() renames a parameter 'using' and a member 'abstract', not in comments", () => {
  const source = lines(
    "f(using: any, b?: string): void;",
    "g(a, using, c = using): void;",
    "abstract?: string;",
    "{ abstract: 1, b: { abstract(): void } }",
    "// f(using: any) abstract: x",
    "using res = open();",
    "abstract class A { abstract run(): void }",
  );
  const text = prepareTypeScript(source);
  assert.equal(text.length, source.length);
  assert.equal(
    text,
    lines(
      "f(u$ing: any, b?: string): void;",
      "g(a, u$ing, c = using): void;",
      "ab$tract?: string;",
      "{ ab$tract: 1, b: { ab$tract(): void } }",
      "// f(using: any) abstract: x",
      "using res = open();",
      "abstract class A { abstract run(): void }",
    ),
  );
});

Deno.test("restoreKeywordNames() puts the renamed names back, members too", () => {
  const symbol = (name: string, children: OutlineSymbol[] = []) => ({
    kind: "property",
    name,
    startLine: 1,
    endLine: 1,
    children,
  });
  const symbols = restoreKeywordNames([
    symbol("M", [symbol("ab$tract"), symbol("$el")]),
    { ...symbol("{ u$ing, ab$tract: a }"), doc: "Calls f(u$ing: x)." },
  ], "f(using: x, abstract: y)");
  assert.deepEqual(symbols.map((s) => s.name), ["M", "{ using, abstract: a }"]);
  assert.equal(symbols[1].doc, "Calls f(using: x).");
  assert.deepEqual(symbols[0].children.map((s) => s.name), ["abstract", "$el"]);
});

Deno.test("prepareTypeScript() and restoreKeywordNames() leave a placeholder the source writes as written", () => {
  const source = "function f(using: T, ab$tract: U) {}\n" +
    "interface M { abstract?: string }\n";
  const text = prepareTypeScript(source);
  assert.equal(text.length, source.length);
  // "ab$tract" is the source's own: "abstract" is not renamed, "using" is.
  assert.equal(
    text,
    "function f(u$ing: T, ab$tract: U) {}\n" +
      "interface M { abstract?: string }\n",
  );
  const symbols = restoreKeywordNames([
    {
      kind: "function",
      name: "f(u$ing: T, ab$tract: U)",
      startLine: 1,
      endLine: 1,
      children: [],
    },
  ], source);
  assert.equal(symbols[0].name, "f(using: T, ab$tract: U)");
});

Deno.test("restoreKeywordNames() reads the parsed text for placeholders before any symbol", () => {
  const source = "interface M { abstract?: string; $a: 1 }\n";
  const parsed = prepareTypeScript(source);
  const symbols = () => [{
    kind: "property",
    name: "ab$tract",
    startLine: 1,
    endLine: 1,
    children: [],
  }];
  assert.equal(
    restoreKeywordNames(symbols(), source, { parsed })[0].name,
    "abstract",
  );
  // A parsed text without a placeholder has no symbol named with one.
  assert.equal(
    restoreKeywordNames(symbols(), source, { parsed: source })[0].name,
    "ab$tract",
  );
});
