// Test support for the language outlines: parse a fixture (or a snippet)
// with the real grammar, run one extractor or the public outlineSymbols(),
// and render the symbols as outline lines so a test can compare names,
// labels, ranges, nesting and doc comments exactly in one readable array;
// tables of such cases register one test each.
import {
  deepStrictEqual as assertDeepEqual,
  ok as assertOk,
} from "node:assert/strict";
import { join } from "node:path";
import type { Node, Tree } from "web-tree-sitter";
import { createParser, type GrammarId } from "../../grammars/grammars.ts";
import {
  fileOutline,
  type OutlineResult,
  outlineSymbols,
  type OutlineSymbolsOptions,
} from "../../mod.ts";
import type { LanguageSpec } from "../../outline/languages/_language.ts";
import type { OutlineSymbol } from "../../outline/types.ts";

/** The folder of per-language outline fixtures. */
export const FIXTURES: URL = new URL("../fixtures/outline/", import.meta.url);

/** Parses `text` with `grammar` and runs `use` on the tree, deleting it after. */
export async function withTree(
  grammar: GrammarId,
  text: string,
  use: (tree: Tree) => void,
): Promise<void> {
  const parser = await createParser(grammar);
  const tree = parser.parse(text)!;
  try {
    use(tree);
  } finally {
    tree.delete();
    parser.delete();
  }
}

/**
 * Registers the test that keeps a grammar repair: `grammar` still parses
 * `text`, what the repair exists for, with an ERROR (`error` says where).
 * When it fails, the grammar reads the text and the repair can go.
 */
export function testStillMisreads(gap: {
  name: string;
  grammar: GrammarId;
  text: string;
  error: string;
}): void {
  Deno.test(gap.name, async () => {
    await withTree(gap.grammar, gap.text, (tree) => {
      assertOk(tree.rootNode.hasError, gap.error);
    });
  });
}

/** `node` and every named node under it, in document order. */
export function descendants(node: Node): Node[] {
  const all = [node];
  for (const child of node.namedChildren) all.push(...descendants(child));
  return all;
}

/** `text` as lines of a file: each line ended by `\n`, the last one too. */
export function lines(...text: string[]): string {
  return text.join("\n") + "\n";
}

/** The outline lines of `text` as `spec` extracts it on the main thread. */
export async function extractLines(
  spec: LanguageSpec,
  text: string,
): Promise<string[]> {
  return outlineLines(await extractText(spec, text));
}

/** Extracts the symbols of `text` with `spec`, deleting the tree after. */
export async function extractText(
  spec: LanguageSpec,
  text: string,
): Promise<OutlineSymbol[]> {
  const parser = await createParser(spec.grammar);
  try {
    // As the worker does: the grammar reads the prepared text.
    const tree = parser.parse(spec.prepare ? spec.prepare(text) : text);
    if (tree === null) throw new Error(`Cannot parse the ${spec.name} text`);
    try {
      return spec.extract(tree.rootNode, text);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** Extracts a fixture from tests/fixtures/outline/ and renders it as lines. */
export async function fixtureLines(
  spec: LanguageSpec,
  name: string,
): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(name, FIXTURES));
  return outlineLines(await extractText(spec, text));
}

/**
 * Renders symbols as `kind name start-end // doc`, four spaces per level,
 * e.g. `    method (*Server) Start 67-71 // Start starts listening.`.
 */
export function outlineLines(symbols: OutlineSymbol[], depth = 0): string[] {
  const lines: string[] = [];
  for (const symbol of symbols) {
    const doc = symbol.doc === undefined ? "" : ` // ${symbol.doc}`;
    lines.push(
      `${
        "    ".repeat(depth)
      }${symbol.kind} ${symbol.name} ${symbol.startLine}-${symbol.endLine}${doc}`,
    );
    lines.push(...outlineLines(symbol.children, depth + 1));
  }
  return lines;
}

/**
 * Outlines `text` saved as `name` in a fresh folder, through the public
 * outlineSymbols() (worker, text passes and all), as {@linkcode outlineLines};
 * `options` as {@linkcode outlineFile} takes them.
 */
export async function outlineFileLines(
  name: string,
  text: string,
  options: Omit<OutlineSymbolsOptions, "cwd"> = {},
): Promise<string[]> {
  return outlineLines((await outlineFile(name, text, options)).symbols);
}

/**
 * The whole outlineSymbols() result of `text` saved as `name` in a fresh
 * folder; `options` go to outlineSymbols() (the folder is the `cwd`).
 */
export async function outlineFile(
  name: string,
  text: string,
  options: Omit<OutlineSymbolsOptions, "cwd"> = {},
): Promise<OutlineResult> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, name), text);
    return await outlineSymbols(name, { ...options, cwd: dir });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The symbol lines of fileOutline()'s text for `text` saved as `name` in a
 * fresh folder (the header and blank lines left out), e.g.
 * `def split (lines 1-2)  // Split it.`.
 */
export async function fileOutlineLines(
  name: string,
  text: string,
): Promise<string[]> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, name), text);
    const outline = await fileOutline(name, { cwd: dir });
    return outline.split("\n").slice(4).filter((line) => line !== "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A snippet and the outline lines it must give. */
export interface OutlineSnippet {
  /** The name the text is saved as, for cases outlined through outlineSymbols(). */
  file?: string;
  /** The source text. */
  text: string;
  /** The expected outline lines. */
  outline: string[];
}

/** One case of a test table: a named test of one snippet or more. */
export interface OutlineCase extends OutlineSnippet {
  /** The test's name. */
  name: string;
  /** Further snippets the same test checks, in order. */
  also?: OutlineSnippet[];
}

/**
 * Registers one test per case: `outline(snippet)` must give
 * `snippet.outline` exactly, for the case and each snippet it has `also`.
 */
export function testOutlines(
  outline: (snippet: OutlineSnippet) => Promise<string[]>,
  cases: OutlineCase[],
): void {
  for (const outlineCase of cases) {
    Deno.test(outlineCase.name, async () => {
      for (const snippet of [outlineCase, ...outlineCase.also ?? []]) {
        assertDeepEqual(await outline(snippet), snippet.outline);
      }
    });
  }
}

/**
 * Registers a test: the fixture `file` of tests/fixtures/outline/, extracted
 * with `spec`, gives `outline` exactly.
 */
export function testFixture(
  spec: LanguageSpec,
  fixture: { name: string; file: string; outline: string[] },
): void {
  Deno.test(fixture.name, async () => {
    assertDeepEqual(await fixtureLines(spec, fixture.file), fixture.outline);
  });
}

/** {@linkcode testOutlines} with `spec`'s extractor on the main thread. */
export function testExtract(spec: LanguageSpec, cases: OutlineCase[]): void {
  testOutlines(({ text }) => extractLines(spec, text), cases);
}

/**
 * {@linkcode testOutlines} through the public outlineSymbols(), each text
 * saved as its case's `file`.
 */
export function testOutlineFiles(cases: OutlineCase[]): void {
  testOutlines(({ file, text }) => {
    if (file === undefined) throw new Error("An outline case needs a file");
    return outlineFileLines(file, text);
  }, cases);
}
