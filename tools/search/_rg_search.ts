// The `search` tool's scan on ripgrep, when it is installed and Deno lets it
// run: the same skips as walk.ts (.git, node_modules, .gitignore and
// .git/info/exclude, symlinks, binary files), matches in the same path order,
// lines shortened the same way. A literal runs as `rg -F`; a regex has its
// ASCII classes (\w, \d, \b: Unicode-wide in ripgrep) spelled out as
// JavaScript reads them; anything ripgrep refuses (look-arounds,
// back-references) is answered undefined, for the caller to scan itself.
import { relative, sep } from "node:path";
import { runtime } from "../../internal/runtime/runtime.ts";
import type { GlobFilter } from "./_glob.ts";
import { shortenLine } from "./_search_file.ts";

/** What ripgrep found, in path order. */
export interface RgScan {
  /** Matching lines, at most `limit + 1` of them (one more tells of a cut). */
  matches: { file: string; line: number; text: string }[];
  unreadable: number;
}

/** What to search for, as the search tool's input gives it. */
export interface RgSearchOptions {
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  /** A file or folder, absolute. */
  root: string;
  glob?: { text: string; filter: GlobFilter };
  /**
   * Whether the .gitignore files above `root` apply: false when none do in
   * the in-process walk (none up to the repository, or they ignore `root`
   * itself), so ripgrep reads none either.
   */
  parentIgnores: boolean;
  limit: number;
  signal?: AbortSignal;
}

/** Candidate lines kept from an unsorted (parallel) run before a sorted one is needed. */
const UNSORTED_CAP = 5000;

let installed: boolean | undefined;

/**
 * Whether the search can run on ripgrep: it is on PATH and `--allow-run`
 * grants it. Never prompts; the PATH probe runs once.
 */
export function ripgrepUsable(): boolean {
  try {
    if (
      runtime.permissions.querySync({ name: "run", command: "rg" }).state !==
        "granted"
    ) return false;
  } catch {
    return false;
  }
  if (installed === undefined) {
    try {
      installed = runtime.command("rg", {
        args: ["--version"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).outputSync().success;
    } catch {
      installed = false;
    }
  }
  return installed;
}

/**
 * Searches with ripgrep; undefined when this search cannot run on it (a
 * pattern it cannot take the same way), so the caller scans itself.
 */
export async function rgSearch(
  options: RgSearchOptions,
): Promise<RgScan | undefined> {
  // Most searches match few lines: all of them, found in parallel, sorted here.
  const quick = await runRg(options, { sorted: false });
  if (quick === undefined || !quick.overflow) {
    return quick && finish(quick, options);
  }
  // Too many to sort: ripgrep in path order (one thread), stopping early.
  const sorted = await runRg(options, { sorted: true });
  return sorted && finish(sorted, options);
}

interface RawRun {
  matches: { file: string; line: number; text: string }[];
  unreadable: number;
  overflow: boolean;
}

function finish(run: RawRun, options: RgSearchOptions): RgScan {
  const matches = run.matches.sort((a, b) =>
    comparePaths(a.file, b.file) || a.line - b.line
  ).slice(0, options.limit + 1);
  return { matches, unreadable: run.unreadable };
}

function rgArgs(options: RgSearchOptions, sorted: boolean): string[] {
  const args = [
    "--no-config",
    "--json",
    "--hidden",
    "--no-ignore-dot",
    "--no-ignore-global",
    "--no-require-git",
    "--crlf",
    "--glob=!.git",
    "--glob=!node_modules",
    `--max-count=${options.limit + 1}`,
  ];
  if (!options.parentIgnores) args.push("--no-ignore-parent");
  if (sorted) args.push("--sort=path");
  // A glob of names only means the same to ripgrep (each match is checked
  // with the search's own filter too); one with a folder in it is matched
  // here alone, as ripgrep reads it from its own working folder.
  if (options.glob && !options.glob.text.includes("/")) {
    args.push(`--glob=${options.glob.text}`);
  }
  if (options.ignoreCase) args.push("--ignore-case");
  else args.push("--case-sensitive");
  if (!options.regex) args.push("--fixed-strings");
  const pattern = options.regex
    ? asciiClasses(options.pattern)
    : options.pattern;
  args.push("--regexp", pattern, "--", options.root);
  return args;
}

async function runRg(
  options: RgSearchOptions,
  { sorted }: { sorted: boolean },
): Promise<RawRun | undefined> {
  const child = runtime.command("rg", {
    args: rgArgs(options, sorted),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already ended.
    }
  };
  options.signal?.addEventListener("abort", kill, { once: true });
  const errors = new Response(child.stderr).text();
  const run: RawRun = {
    matches: [],
    unreadable: 0,
    overflow: false,
  };
  const cap = sorted ? Infinity : Math.max(UNSORTED_CAP, options.limit * 10);
  let stopped = false;
  try {
    for await (const line of lines(child.stdout)) {
      const message = JSON.parse(line);
      if (message.type !== "match") continue;
      const file = textOf(message.data.path);
      if (
        options.glob && !passesGlob(options.root, file, options.glob.filter)
      ) {
        continue;
      }
      run.matches.push({
        file,
        line: message.data.line_number,
        text: lineText(message.data),
      });
      if (run.matches.length > cap) {
        run.overflow = true;
        stopped = true;
        kill();
        break;
      }
      if (sorted && run.matches.length > options.limit) {
        stopped = true;
        kill();
        break;
      }
    }
  } finally {
    options.signal?.removeEventListener("abort", kill);
  }
  const [status, stderr] = await Promise.all([child.status, errors]);
  options.signal?.throwIfAborted();
  if (!stopped && status.code === 2 && run.matches.length === 0) {
    // A pattern ripgrep cannot take (a look-around, a back-reference).
    if (/regex parse error|error parsing|not supported/i.test(stderr)) {
      return undefined;
    }
  }
  run.unreadable =
    stderr.split("\n").filter((l) => /^rg: /.test(l) && !/regex/.test(l))
      .length;
  return run;
}

async function* lines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let carry = "";
  for await (const chunk of stream) {
    const text = carry + decoder.decode(chunk, { stream: true });
    const parts = text.split("\n");
    carry = parts.pop()!;
    for (const part of parts) if (part !== "") yield part;
  }
  if (carry !== "") yield carry;
}

/** ripgrep's `{text}` or `{bytes}` (base64, for what is not UTF-8). */
function textOf(value: { text?: string; bytes?: string }): string {
  if (value.text !== undefined) return value.text;
  const bytes = Uint8Array.from(
    atob(value.bytes ?? ""),
    (c) => c.charCodeAt(0),
  );
  return new TextDecoder().decode(bytes);
}

/** A match's line without its line ending, shortened around the first match. */
function lineText(
  data: {
    lines: { text?: string; bytes?: string };
    submatches: { start: number }[];
  },
): string {
  const text = textOf(data.lines).replace(/\r?\n$/, "").replace(/\r$/, "");
  const start = data.submatches[0]?.start ?? 0;
  // ripgrep gives byte offsets; shortening wants a character index.
  const column = !/[^\t -~]/.test(text)
    ? start
    : new TextDecoder().decode(new TextEncoder().encode(text).slice(0, start))
      .length;
  return shortenLine(text, column);
}

/** JavaScript's ASCII-only escapes, as ripgrep's Unicode mode must be told them. */
const ASCII_CLASSES: Record<string, string> = {
  d: "[0-9]",
  D: "[^0-9]",
  w: "[0-9A-Za-z_]",
  W: "[^0-9A-Za-z_]",
  b: "(?-u:\\b)",
  B: "(?-u:\\B)",
};

/**
 * Rewrites \d, \w, \b and their negations outside character classes (inside
 * one, ripgrep nests the class; `[\b]` is left for ripgrep to refuse).
 */
function asciiClasses(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\" && i + 1 < pattern.length) {
      const next = pattern[i + 1];
      const spelled = ASCII_CLASSES[next];
      const word = next === "b" || next === "B";
      out += spelled && !(inClass && word) ? spelled : char + next;
      i++;
    } else {
      if (char === "[" && !inClass) inClass = true;
      else if (char === "]" && inClass) inClass = false;
      out += char;
    }
  }
  return out;
}

function passesGlob(root: string, file: string, glob: GlobFilter): boolean {
  const rel = relative(root, file);
  return glob(sep === "/" ? rel : rel.split(sep).join("/"));
}

/** walk.ts's order: depth first, each folder's entries by name. */
function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const left = a.split(sep);
  const right = b.split(sep);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i] < right[i] ? -1 : 1;
  }
  return left.length - right.length;
}
