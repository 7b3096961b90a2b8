// Test support for the language extractors: parse a fixture (or a snippet)
// with the real grammar, run one extractor, and render the symbols as
// outline lines so a test can compare names, labels, ranges, nesting and doc
// comments exactly in one readable array.
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

/** `node` and every named node under it, in document order. */
export function descendants(node: Node): Node[] {
  const all = [node];
  for (const child of node.namedChildren) all.push(...descendants(child));
  return all;
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
 * outlineSymbols() (worker, text passes and all), as {@linkcode outlineLines}.
 */
export async function outlineFileLines(
  name: string,
  text: string,
): Promise<string[]> {
  return outlineLines((await outlineFile(name, text)).symbols);
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
