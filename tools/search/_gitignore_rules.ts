// One .gitignore file's rules, compiled so that testing a path costs about
// the same under 20 000 rules as under 20. The `ignore` package tests a path
// against every rule in turn (a regex each), so a search took files x rules:
// 29 s for 2 001 files under 30 000 rules. Its answer is the last rule that
// matches (a later `!rule` re-includes, a later rule ignores again), and so
// is this one's: rules without wildcards (`name`, `name/`, `/a/b`) and
// `*suffix` and `prefix*` rules go into maps keyed by what they match, the
// rest into a few combined regexes (grouped by the literal folders they are
// anchored below, if any), and the rule numbers decide which match is last. The rules are parsed, and
// the wildcard ones turned into regexes, by the `ignore` package itself, so
// both read a file the same way.
import ignore from "ignore";

/** Regex rules per combined regex: V8 compiles a bigger one much slower. */
const CHUNK = 256;
/** Folder answers remembered per file, for the paths below them. */
const MAX_CACHED_FOLDERS = 4096;

/** The parts of a rule of the `ignore` package that this reads. */
interface ParsedRule {
  /** The line the rule came from. */
  pattern: string;
  /** The pattern without `!`, comment escapes and trailing spaces. */
  body: string;
  negative: boolean;
  regex: RegExp;
}

/** A wildcard rule, kept as its regex source until it must be told apart. */
interface RegexRule {
  code: number;
  source: string;
  regex?: RegExp;
}

/** Consecutive regex rules and one regex matching where any of them does. */
interface Chunk {
  regex: RegExp;
  rules: RegexRule[];
}

/** The last rule for each key, for all paths and for folders only. */
class LastRules {
  #any = new Map<string, number>();
  #folders = new Map<string, number>();

  /** Records a rule; rules may come out of order (see parseWithIgnore()). */
  add(key: string, folderOnly: boolean, code: number): void {
    const map = folderOnly ? this.#folders : this.#any;
    if (!(map.get(key)! > code)) map.set(key, code);
  }

  /** The later of `best` and the last rule for `key`. */
  last(key: string, isFolder: boolean, best: number): number {
    const any = this.#any.get(key);
    if (any !== undefined && any > best) best = any;
    if (!isFolder) return best;
    const folder = this.#folders.get(key);
    return folder !== undefined && folder > best ? folder : best;
  }
}

/**
 * The compiled rules of one .gitignore text. A rule's code is its number
 * times two, plus one for a `!` rule: the larger code is the later rule.
 */
export class GitIgnoreRules {
  #ignoreCase: boolean;
  #names = new LastRules();
  #paths = new LastRules();
  #suffixes = new LastRules();
  #prefixes = new LastRules();
  /** The lengths of the keys of `#suffixes` and `#prefixes`, ascending. */
  #suffixLengths: number[] = [];
  #prefixLengths: number[] = [];
  /** Regex rules anchored below literal folders (`/a/b/*.js`), by them. */
  #byFolder = new Map<string, Chunk[]>();
  /** How many folders the keys of `#byFolder` hold, ascending. */
  #folderDepths: number[] = [];
  #anywhere: Chunk[] = [];
  #folderCache = new Map<string, boolean>();

  constructor(text: string, options: { ignoreCase: boolean }) {
    const bom = text.startsWith("\uFEFF");
    this.#ignoreCase = options.ignoreCase;
    const regexRules = new Map<string, RegexRule[]>();
    const suffixLengths = new Set<number>();
    const prefixLengths = new Set<number>();
    const add = (code: number, body: string, regex?: () => RegExp) => {
      const kind = this.#classify(body);
      if ("map" in kind) {
        if (kind.map === this.#suffixes) suffixLengths.add(kind.key.length);
        if (kind.map === this.#prefixes) prefixLengths.add(kind.key.length);
        kind.map.add(kind.key, kind.folderOnly, code);
        return true;
      }
      if (regex === undefined) return false;
      const list = regexRules.get(kind.folder) ?? [];
      list.push({ code, source: regex().source });
      regexRules.set(kind.folder, list);
      return true;
    };
    // Most lines of a big file are plain names or paths: read at once.
    const lines = splitLines(text);
    const others: number[] = [];
    lines.forEach((line, index) => {
      const plain = plainRule(line);
      if (plain === null) return; // a comment
      if (plain === undefined || !add(index * 2 + plain.negative, plain.body)) {
        others.push(index);
      }
    });
    for (
      const { index, rule } of parseWithIgnore(lines, others, {
        ...options,
        bom,
      })
    ) {
      add(index * 2 + Number(rule.negative), rule.body, () => rule.regex);
    }
    this.#suffixLengths = ascending(suffixLengths);
    this.#prefixLengths = ascending(prefixLengths);
    const depths = new Set<number>();
    for (const [folder, rules] of regexRules) {
      const chunks = this.#chunks(rules);
      if (folder === "") this.#anywhere = chunks;
      else this.#byFolder.set(folder, chunks);
      if (folder !== "") depths.add(folder.split("/").length);
    }
    this.#folderDepths = ascending(depths);
  }

  /**
   * What the rules say of `path` (relative to the .gitignore's folder,
   * `/`-separated, ending in `/` for a folder): true when ignored, false when
   * a `!` rule re-includes it, undefined when no rule matches. As in the
   * `ignore` package, a path below an ignored folder is ignored.
   */
  ignores(path: string): boolean | undefined {
    const cut = path.lastIndexOf("/", path.length - 2);
    if (cut >= 0 && this.#folderIgnored(path.slice(0, cut + 1))) return true;
    return this.#own(path);
  }

  #folderIgnored(folder: string): boolean {
    const cached = this.#folderCache.get(folder);
    if (cached !== undefined) return cached;
    const cut = folder.lastIndexOf("/", folder.length - 2);
    const ignored =
      (cut >= 0 && this.#folderIgnored(folder.slice(0, cut + 1))) ||
      this.#own(folder) === true;
    if (this.#folderCache.size >= MAX_CACHED_FOLDERS) this.#folderCache.clear();
    this.#folderCache.set(folder, ignored);
    return ignored;
  }

  // The last rule matching the path itself, its parents aside.
  #own(path: string): boolean | undefined {
    const isFolder = path.endsWith("/");
    const bare = isFolder ? path.slice(0, -1) : path;
    const name = bare.slice(bare.lastIndexOf("/") + 1);
    let best = -1;
    const nameKey = this.#fold(name);
    if (nameKey !== undefined) best = this.#names.last(nameKey, isFolder, best);
    const pathKey = this.#fold(bare);
    if (pathKey !== undefined) best = this.#paths.last(pathKey, isFolder, best);
    for (const length of this.#suffixLengths) {
      if (length > name.length) break;
      const key = this.#fold(name.slice(-length));
      if (key !== undefined) best = this.#suffixes.last(key, isFolder, best);
    }
    for (const length of this.#prefixLengths) {
      if (length > name.length) break;
      const key = this.#fold(name.slice(0, length));
      if (key !== undefined) best = this.#prefixes.last(key, isFolder, best);
    }
    best = lastMatch(this.#anywhere, path, best);
    // The rules anchored below each folder the path is in.
    let end = -1;
    for (let depth = 1, i = 0; i < this.#folderDepths.length; depth++) {
      end = bare.indexOf("/", end + 1);
      if (end < 0) break;
      if (this.#folderDepths[i] !== depth) continue;
      i++;
      const key = this.#fold(bare.slice(0, end));
      const chunks = key === undefined ? undefined : this.#byFolder.get(key);
      if (chunks) best = lastMatch(chunks, path, best);
    }
    return best < 0 ? undefined : (best & 1) === 0;
  }

  /**
   * Where a rule's body goes: a map and its key when it has no wildcard (or
   * one `*` leading or ending a name), else among the regex rules anchored
   * below the literal folders it starts with ("" for none).
   */
  #classify(body: string):
    | { map: LastRules; key: string; folderOnly: boolean }
    | { folder: string } {
    const folderOnly = body.endsWith("/");
    const core = folderOnly ? body.slice(0, -1) : body;
    // `**/x` matches x at any depth, as `x` does (the same regex).
    const name = core.replace(/^(?:\*\*\/)+/, "");
    if (!name.includes("/")) {
      if (this.#literal(name)) {
        return { map: this.#names, key: this.#fold(name)!, folderOnly };
      }
      const suffix = name.slice(1);
      if (name[0] === "*" && this.#literal(suffix)) {
        return { map: this.#suffixes, key: this.#fold(suffix)!, folderOnly };
      }
      const prefix = name.slice(0, -1);
      if (name.endsWith("*") && this.#literal(prefix)) {
        return { map: this.#prefixes, key: this.#fold(prefix)!, folderOnly };
      }
      return { folder: "" };
    }
    if (name !== core) return { folder: "" };
    // A slash before the end anchors the rule to the .gitignore's folder.
    const anchored = core.startsWith("/") ? core.slice(1) : core;
    const segments = anchored.split("/");
    if (segments.every((s) => this.#literal(s))) {
      return { map: this.#paths, key: this.#fold(anchored)!, folderOnly };
    }
    // It matches only below its leading literal folders (a path ignored
    // there is one in them, not one of them, as `a/*` does not match `a`).
    const literal = segments.findIndex((s) => !this.#literal(s));
    return { folder: this.#fold(segments.slice(0, literal).join("/"))! };
  }

  /**
   * Whether text matches only itself in a rule: no wildcard, class or
   * escape; and ASCII when case is ignored, where a regex folds case by
   * rules of its own.
   */
  #literal(text: string): boolean {
    return text !== "" && !/[*?[\]\\\0\uE000\uE001]/.test(text) &&
      (!this.#ignoreCase || /^[\x20-\x7e]*$/.test(text));
  }

  // The key for text in the maps; undefined when no literal rule can match it.
  #fold(text: string): string | undefined {
    if (!this.#ignoreCase) return text;
    return /[\u0080-\uFFFF]/.test(text) ? undefined : text.toLowerCase();
  }

  #chunks(rules: RegexRule[]): Chunk[] {
    const flags = this.#ignoreCase ? "i" : "";
    const chunks: Chunk[] = [];
    for (let i = 0; i < rules.length; i += CHUNK) {
      const part = rules.slice(i, i + CHUNK);
      const source = part.map((r) => `(?:${r.source})`).join("|");
      chunks.push({ regex: new RegExp(source, flags), rules: part });
    }
    return chunks;
  }
}

// The lines as the `ignore` package splits a text (it drops empty ones).
function splitLines(text: string): string[] {
  const body = text.endsWith("\r") ? text.slice(0, -1) : text;
  return body.split(/\r?\n/).filter(Boolean);
}

/**
 * A line's rule when reading it needs no trimming or unescaping (what the
 * `ignore` package would make of it too); null for a comment; undefined
 * when the package must read it.
 */
function plainRule(
  line: string,
): { negative: number; body: string } | null | undefined {
  if (line[0] === "#") return null;
  const negative = line[0] === "!" ? 1 : 0;
  const body = line.slice(negative);
  if (body === "" || /[\\\r\uFEFF]| $/.test(body)) return undefined;
  return { negative, body };
}

/**
 * The `ignore` package's reading of some of the lines, with each rule's line
 * number. Lines it drops (comments, empty rules) have none.
 */
function parseWithIgnore(
  lines: readonly string[],
  indexes: readonly number[],
  options: { ignoreCase: boolean; bom: boolean },
): { index: number; rule: ParsedRule }[] {
  if (indexes.length === 0) return [];
  // Each line ends in "\r\n", which keeps a line's own final "\r" as the
  // package split it; only the file's first line may lose a byte order mark.
  const text = (indexes[0] === 0 && options.bom ? "" : "\n") +
    indexes.map((i) => `${lines[i]}\r\n`).join("");
  const parsed = ignore({ ignorecase: options.ignoreCase }).add(text);
  // Internal to the package (pinned in deno.json); tests compare answers.
  const rules = (parsed as unknown as { _rules: { _rules: ParsedRule[] } })
    ._rules._rules;
  const found: { index: number; rule: ParsedRule }[] = [];
  let next = 0;
  for (const index of indexes) {
    // Rules keep their lines' order; a dropped line's text makes no rule.
    if (rules[next]?.pattern !== lines[index]) continue;
    found.push({ index, rule: rules[next++] });
  }
  return found;
}

// The later of `best` and the last rule in `chunks` matching the path.
function lastMatch(
  chunks: readonly Chunk[],
  path: string,
  best: number,
): number {
  for (let c = chunks.length - 1; c >= 0; c--) {
    const { regex, rules } = chunks[c];
    if (rules[rules.length - 1].code < best) break;
    if (!regex.test(path)) continue;
    // Earlier chunks hold earlier rules: the answer is in this one or none.
    for (let r = rules.length - 1; r >= 0 && rules[r].code > best; r--) {
      const rule = rules[r];
      rule.regex ??= new RegExp(rule.source, regex.flags);
      if (rule.regex.test(path)) return rule.code;
    }
    break;
  }
  return best;
}

function ascending(numbers: Set<number>): number[] {
  return [...numbers].sort((a, b) => a - b);
}
