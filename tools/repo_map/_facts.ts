// What the repo map knows of each file: its definitions, flattened from the
// outline, and the names its code uses.
import type { OutlineSymbol } from "../../outline/types.ts";
import { ownNameParts } from "../../outline/name_path.ts";

/** A definition of one file, flattened from its outline. */
export interface Definition {
  /**
   * The name code uses for the symbol, the last part of its name path
   * (`Serve` for a Go method `(*Server) Serve`).
   */
  name: string;
  /** The name as the outline lists it, shown in the map. */
  label: string;
  /** The name path from the file's top (see outline/name_path.ts). */
  path: string;
  kind: string;
  startLine: number;
  endLine: number;
  /** Nesting depth, 0 at the top of the file. */
  depth: number;
  /** Index of the enclosing definition in the file's list, or -1. */
  parent: number;
}

/** What the map knows of one file. */
export interface FileFacts {
  size: number;
  mtimeMs: number;
  definitions: Definition[];
  /** The identifiers its code uses, each once. */
  names: string[];
}

/** An outline's symbols as a flat list, parents before their children. */
export function flatten(symbols: OutlineSymbol[]): Definition[] {
  const out: Definition[] = [];
  const visit = (list: OutlineSymbol[], depth: number, parent: number) => {
    for (const symbol of list) {
      const index = out.length;
      const prefix = parent < 0 ? "" : `${out[parent].path}.`;
      const parts = ownNameParts(symbol.name);
      out.push({
        name: parts.at(-1)!,
        label: symbol.name,
        path: prefix + parts.join("."),
        kind: symbol.kind,
        startLine: symbol.startLine,
        endLine: symbol.endLine,
        depth,
        parent,
      });
      visit(symbol.children, depth + 1, index);
    }
  };
  visit(symbols, 0, -1);
  return out;
}
