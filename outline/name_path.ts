/**
 * Name paths: a symbol of an outline named by the names from the file's top
 * down to it, joined by `.` (`Outliner.run`, `ts.server.protocol.Message`).
 * A suffix unique in the file names it too (`Message`), and `@LINE` picks
 * one of several symbols with the same path (`parse@120`).
 *
 * @module
 */
import { ToolError } from "../internal/tool_error.ts";
import type { OutlineSymbol } from "./types.ts";

/**
 * A symbol of an outline together with its name path.
 *
 * A type only: needs no permission.
 *
 * @example Name every symbol of an outline
 * ```ts
 * import { namedSymbols, type NamedSymbol } from "./name_path.ts";
 * import assert from "node:assert/strict";
 *
 * const method = { kind: "method", name: "run", startLine: 2, endLine: 4, children: [] };
 * const named: NamedSymbol[] = namedSymbols([
 *   { kind: "class", name: "Outliner", startLine: 1, endLine: 5, children: [method] },
 * ]);
 * assert.deepEqual(named.map((entry) => entry.path), ["Outliner", "Outliner.run"]);
 * ```
 */
export interface NamedSymbol {
  /** The names from the file's top down to the symbol, joined by `.`. */
  path: string;
  /** The symbol as the outline lists it. */
  symbol: OutlineSymbol;
}

/**
 * Every symbol of an outline with its name path, parents before children.
 * A name that holds its own scope counts as several names: C++'s
 * `ns::Class::method` is `ns.Class.method`, a Go method `(*Server) Serve` is
 * `Server.Serve` (by its receiver's type).
 *
 * Needs no permission.
 *
 * @example A Go method is named by its receiver
 * ```ts
 * import { namedSymbols } from "./name_path.ts";
 * import assert from "node:assert/strict";
 *
 * const serve = { kind: "method", name: "(*Server) Serve", startLine: 5, endLine: 7, children: [] };
 * assert.equal(namedSymbols([serve])[0].path, "Server.Serve");
 * ```
 *
 * @param symbols The outline's top-level symbols.
 * @returns The symbols in outline order, each with its path.
 */
export function namedSymbols(symbols: OutlineSymbol[]): NamedSymbol[] {
  const out: NamedSymbol[] = [];
  const visit = (list: OutlineSymbol[], prefix: string): void => {
    for (const symbol of list) {
      const path = prefix + ownNameParts(symbol.name).join(".");
      out.push({ path, symbol });
      visit(symbol.children, `${path}.`);
    }
  };
  visit(symbols, "");
  return out;
}

// A Go method's name as the outline writes it: `(*Server) Serve`,
// `(s *List[T]) Push`, `(Server) Other`.
const GO_METHOD = /^\((?:\w+\s+)?\*?([\w.]+)(?:\[[^\]]*\])?\)\s+(\S.*)$/;

/**
 * The parts of the name path that a symbol's own name makes: one, its name,
 * unless the name holds its own scope (C++'s `ns::Class::method`, a Go
 * method `(*Server) Serve`, named by its receiver's type).
 *
 * Needs no permission.
 *
 * @example
 * ```ts
 * import { ownNameParts } from "./name_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(ownNameParts("(s *List[T]) Push"), ["List", "Push"]);
 * assert.deepEqual(ownNameParts("::ns::Widget::draw"), ["ns", "Widget", "draw"]);
 * assert.deepEqual(ownNameParts("v1.2 Release"), ["v1.2 Release"]);
 * ```
 *
 * @param name The symbol's name as the outline lists it.
 * @returns The parts, outermost first.
 */
export function ownNameParts(name: string): string[] {
  const method = GO_METHOD.exec(name);
  if (method !== null) return [method[1], method[2]];
  // `ns::Class::method`; a leading `::` (the global scope) names nothing.
  return name.includes("::")
    ? name.split("::").filter((part) => part !== "")
    : [name];
}

/**
 * Options for {@linkcode resolveNamePath}.
 *
 * Needs no permission.
 *
 * @example Name the file and the action in errors
 * ```ts
 * import { resolveNamePath, type ResolveOptions } from "./name_path.ts";
 * import assert from "node:assert/strict";
 *
 * const options: ResolveOptions = { file: "a.ts", verb: "edit" };
 * assert.throws(() => resolveNamePath([], "f", options), /^ToolError: Cannot edit "a\.ts"/);
 * ```
 */
export interface ResolveOptions {
  /** The file as shown in errors. */
  file: string;
  /** What the caller does, for errors: `Cannot read "a.ts": ...`; defaults to `read`. */
  verb?: string;
  /**
   * The first line that belongs to a symbol (its doc comment's), so that an
   * `@LINE` there picks it too; defaults to the symbol's own first line.
   */
  startOf?: (symbol: OutlineSymbol) => number;
}

/** The most near names an error for an unknown name lists. */
const MAX_NEAREST = 5;

/**
 * The one symbol that `query` names: its full name path, a suffix of whole
 * names that only one symbol's path ends with, either followed by `@LINE` to
 * pick the one (of several with that name) whose lines hold LINE. A full
 * path wins over longer paths that end with it.
 *
 * Throws a `ToolError` naming the file when no symbol has the name (listing
 * the nearest names, up to 5, as `kind path (lines a-b)`) or when several do
 * (listing every one).
 *
 * Needs no permission.
 *
 * @example Resolve a nested name, a suffix and an overload
 * ```ts
 * import { resolveNamePath } from "./name_path.ts";
 * import assert from "node:assert/strict";
 *
 * const leaf = (name: string, line: number) => ({ kind: "method", name, startLine: line, endLine: line, children: [] });
 * const symbols = [
 *   { kind: "class", name: "Parser", startLine: 1, endLine: 9, children: [leaf("parse", 2), leaf("parse", 5), leaf("reset", 8)] },
 * ];
 * assert.equal(resolveNamePath(symbols, "Parser.reset", { file: "a.ts" }).symbol.startLine, 8);
 * assert.equal(resolveNamePath(symbols, "reset", { file: "a.ts" }).path, "Parser.reset");
 * assert.equal(resolveNamePath(symbols, "parse@5", { file: "a.ts" }).symbol.startLine, 5);
 * assert.throws(
 *   () => resolveNamePath(symbols, "parse", { file: "a.ts" }),
 *   /"parse" names 2 symbols: method Parser\.parse \(lines 2-2\), method Parser\.parse \(lines 5-5\)/,
 * );
 * ```
 *
 * @param symbols The outline's top-level symbols.
 * @param query The name path, maybe with `@LINE`.
 * @param options The file for errors, and where symbols start.
 * @returns The symbol and its full name path.
 */
export function resolveNamePath(
  symbols: OutlineSymbol[],
  query: string,
  options: ResolveOptions,
): NamedSymbol {
  const where = `Cannot ${options.verb ?? "read"} "${options.file}"`;
  const at = /^(.*?)\s*@\s*(\d+)$/.exec(query.trim());
  const name = (at === null ? query : at[1]).trim();
  const line = at === null ? undefined : Number(at[2]);
  if (name === "") {
    throw new ToolError(
      `${where}: the symbol name is empty; give a name path such as "Class.method" (file_outline lists the names)`,
    );
  }
  const all = namedSymbols(symbols);
  const exact = all.filter((entry) => entry.path === name);
  const named = exact.length > 0
    ? exact
    : all.filter((entry) => entry.path.endsWith(`.${name}`));
  if (named.length === 0) throw unknownName(where, name, all);
  const startOf = options.startOf ??
    ((symbol: OutlineSymbol) => symbol.startLine);
  const picked = line === undefined
    ? named
    : named.filter(({ symbol }) =>
      startOf(symbol) <= line && line <= symbol.endLine
    );
  if (picked.length === 1) return picked[0];
  if (picked.length === 0) {
    throw new ToolError(
      `${where}: no symbol named "${name}" holds line ${line}; ${
        named.length === 1 ? "the one there is" : "those there are"
      } ${listed(named)}`,
    );
  }
  // Several with this name hold the line: the one that starts there, if any.
  const starting = picked.filter(({ symbol }) => startOf(symbol) === line);
  if (starting.length === 1) return starting[0];
  const example = `${name}@${picked[0].symbol.startLine}`;
  const paths = new Set(picked.map((entry) => entry.path));
  throw new ToolError(
    `${where}: "${query.trim()}" names ${picked.length} symbols: ${
      listed(picked)
    }; ${
      paths.size > 1 ? "give the full name path, or " : ""
    }add @LINE with a line of the one you mean (for example "${example}")`,
  );
}

function listed(entries: NamedSymbol[]): string {
  return entries.map(({ path, symbol }) =>
    `${symbol.kind} ${path} (lines ${symbol.startLine}-${symbol.endLine})`
  ).join(", ");
}

function unknownName(
  where: string,
  name: string,
  all: NamedSymbol[],
): ToolError {
  if (all.length === 0) {
    return new ToolError(
      `${where}: no symbol is named "${name}", and the outline of the file lists no symbols; read it by lines instead`,
    );
  }
  const wanted = name.toLowerCase();
  const scored = all.map((entry) => ({
    entry,
    score: nearness(wanted, entry.path.toLowerCase()),
  }));
  // Stable: equally near names keep the file's order.
  scored.sort((a, b) => a.score - b.score);
  const nearest = scored.slice(0, MAX_NEAREST).map(({ entry }) => entry);
  return new ToolError(
    `${where}: no symbol is named "${name}"; the nearest names are ${
      listed(nearest)
    }; give one of these, or call file_outline on the file to see every name`,
  );
}

/**
 * How far `path` is from the name asked for (lower is nearer): the edit
 * distance to the path or to its last names, whichever is least, so that
 * `Mesage` is near `ts.server.protocol.Message`.
 */
function nearness(wanted: string, path: string): number {
  const parts = path.split(".");
  let best = Infinity;
  for (let i = 0; i < parts.length; i++) {
    const suffix = parts.slice(i).join(".");
    best = Math.min(best, editDistance(wanted, suffix) + (i > 0 ? 0.5 : 0));
  }
  return best;
}

/** Levenshtein distance, in two rows. */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}
