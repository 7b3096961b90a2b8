// The contract between the outline worker and a language: each language file
// of a family folder (`ecmascript/typescript.ts`, `c_family/c.ts`, ...)
// exports one LanguageSpec. Runs inside the worker (the main thread only
// joins the outlines of a file's pieces).
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../types.ts";

import type { GrammarId } from "../../grammars/grammars.ts";

/** The grammars the engine can load (see grammars/grammars.ts). */
export type { GrammarId };

/** How to outline one language from its tree-sitter syntax tree. */
export interface LanguageSpec {
  /** Display name for the `Language:` line, e.g. `TypeScript`. */
  name: string;
  /** The grammar to parse with. */
  grammar: GrammarId;
  /** File extensions with the dot, lower case, e.g. `[".ts"]`. */
  extensions: string[];
  /**
   * Extracts the symbols (top level, with children) from the root node.
   * `source` is the text parsed: slicing it is cheaper than a call into WASM
   * (tree-sitter's indexes count UTF-16 code units for a string input).
   */
  extract(
    root: Node,
    source: string,
    options?: ExtractOptions,
  ): OutlineSymbol[];
  /**
   * Joins the top-level symbols of the pieces of one file, in order (a large
   * file is parsed in pieces, see `_pieces.ts`), for a language whose outline
   * looks beyond one piece: TypeScript merges overloads, C drops the
   * prototypes of functions the file defines. Defaults to concatenation.
   */
  join?(pieces: OutlineSymbol[][]): OutlineSymbol[];
  /**
   * The text the grammar parses instead of the file's, with every line and
   * offset where it was (C++ blanks declaration macros the grammar cannot
   * read). `extract` still gets the file's text. A large file's pieces are
   * prepared one by one, so the pass must decide from the code around a
   * place, never from the whole file; a language whose pass does not (as
   * Objective-C's) sets `parseWhole`.
   */
  prepare?(source: string): string;
  /**
   * Where the code bodies of the text `prepare` gave are, as [start, end)
   * UTF-16 offsets in order, when a scan of the text can tell (undefined
   * when it cannot): bodies that hold no symbol the outline lists, which an
   * outline then parses without (Swift's functions and properties).
   */
  codeBodies?(parsed: string): [number, number][] | undefined;
  /** Never parse a large file of this language in pieces. */
  parseWhole?: boolean;
  /**
   * Matches the start of a line that the grammar's scanner reads as going on
   * with the statement above, even after a blank line (TypeScript's `in`,
   * Swift's `as`): a piece never starts there (see `_pieces.ts`).
   */
  continuation?: RegExp;
  /** Blocks are braces: no piece starts inside an open one. */
  braces?: boolean;
  /** `#if` ... `#endif` blocks nest (C, C++, Swift): no piece starts inside one. */
  preprocessor?: boolean;
}

/** Options for {@linkcode LanguageSpec.extract}. */
export interface ExtractOptions {
  /** The tree is one piece of a file: leave to `join` what needs them all. */
  piece?: boolean;
}
