// False refusals of the edit tools' syntax check on published, valid code:
// every file of a body of code per language is written with WriteFile as a
// new file (a fresh path, so any error the grammar finds counts), and the
// calls refused (or, for a language that reports, reported) are counted. A
// language whose grammar refuses more than 1% of valid files reports instead
// (SYNTAX_POLICY in tools/_syntax_check.ts); the README's table holds the
// figures. Not a Deno.bench suite and not in the test run:
// `deno run -A bench/syntax_refusal.ts [language ...]` prints the table rows,
// `--missed` the first error of up to 10 refused files per language.
//
// A file that WriteFile passes is checked once more with findSyntaxErrors
// (from the tree the write's check kept, so at little cost): a check that
// could not run (a parse over its budget, a failed worker) lets the write
// through, and is counted as unchecked rather than as clean.
import { basename, join } from "node:path";
import { createTools } from "../mod.ts";
import { findSyntaxErrors } from "../outline/syntax_errors.ts";
import { SYNTAX_POLICY } from "../tools/_syntax_check.ts";
import { CORPORA, type Corpus, corpusFiles } from "./_corpora.ts";
import { packageFile, packageTree } from "../tests/support/npm_package.ts";

const SHOW_MISSED = Deno.args.includes("--missed");
const MAX_SHOWN = 10;

/** Python's standard library packages beside its top level (tests left out). */
const PYTHON_PACKAGES = [
  "asyncio",
  "collections",
  "concurrent",
  "email",
  "http",
  "importlib",
  "json",
  "logging",
  "multiprocessing",
  "sqlite3",
  "urllib",
  "xml",
];

/** Go standard library folders (testdata/ left out). */
const GO_FOLDERS = [
  "bufio",
  "bytes",
  "encoding",
  "fmt",
  "go",
  "io",
  "math",
  "net",
  "os",
  "sort",
  "strconv",
  "strings",
  "sync",
  "time",
];

const REACT_NATIVE = "react-native@0.76.5";

/**
 * The bodies of code measured: the outline benches' corpora, widened where
 * they are small (one C file, a few Go and Python folders).
 */
const BODIES: Corpus[] = CORPORA.map((corpus): Corpus => {
  switch (corpus.language) {
    case "typescript":
      return {
        ...corpus,
        source: `${corpus.source}; zod@4.6.7 src/; rxjs@7.8.1 src/`,
        paths: async () => [
          ...await corpus.paths(),
          await packageFile("zod@4.6.7", "src"),
          await packageFile("rxjs@7.8.1", "src"),
        ],
      };
    case "javascript":
      return {
        ...corpus,
        source: `${corpus.source}; lodash@4.17.21 (CommonJS modules)`,
        paths: async () => [
          ...await corpus.paths(),
          await packageTree("lodash", ["lodash@4.17.21"]),
        ],
      };
    case "python":
      return {
        ...corpus,
        source: `CPython 3.11 standard library: top level and ${
          PYTHON_PACKAGES.join(", ")
        } (Debian)`,
        paths: () =>
          Promise.resolve([
            "/usr/lib/python3.11",
            ...PYTHON_PACKAGES.map((name) => `/usr/lib/python3.11/${name}`),
          ]),
      };
    case "go":
      return {
        ...corpus,
        source: `Go 1.19 standard library: ${
          GO_FOLDERS.join(", ")
        } (Debian golang-1.19-src)`,
        paths: () =>
          Promise.resolve(
            GO_FOLDERS.map((dir) => `/usr/share/go-1.19/src/${dir}`),
          ),
      };
    case "c":
      return {
        ...corpus,
        source:
          `${corpus.source}; tree-sitter-c@0.24.1, tree-sitter-go@0.25.0 src/*.c; /usr/include/*.h (glibc, Debian)`,
        extensions: [".c", ".h"],
        paths: async () => [
          ...await corpus.paths(),
          await packageFile("tree-sitter-c@0.24.1", "src"),
          await packageFile("tree-sitter-go@0.25.0", "src"),
          ...await _topLevel("/usr/include", ".h"),
        ],
      };
    case "cpp":
      return {
        ...corpus,
        source: `${corpus.source}; ${REACT_NATIVE} ReactCommon/ (.cpp, .h)`,
        extensions: [".h", ".cpp"],
        paths: async () => [
          ...await corpus.paths(),
          join(await _reactNative(), "ReactCommon"),
        ],
      };
    case "kotlin":
      return {
        ...corpus,
        source: `${corpus.source}; ${REACT_NATIVE} ReactAndroid/ (.kt)`,
        paths: async () => [
          ...await corpus.paths(),
          join(await _reactNative(), "ReactAndroid"),
        ],
      };
    default:
      return corpus;
  }
}).concat({
  language: "flow",
  source: `${REACT_NATIVE} Libraries/ (.js, most of them Flow-typed)`,
  extensions: [".js"],
  paths: async () => [join(await _reactNative(), "Libraries")],
});

// React Native's package, unpacked whole once.
async function _reactNative(): Promise<string> {
  return join(await packageTree("react-native", [REACT_NATIVE]), REACT_NATIVE);
}

// The files directly in `folder` ending in `extension` (no subfolders).
async function _topLevel(folder: string, extension: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (entry.isFile && entry.name.endsWith(extension)) {
      found.push(join(folder, entry.name));
    }
  }
  return found.sort();
}

interface Row {
  language: string;
  source: string;
  files: number;
  /** Refused, or reported by a language that reports. */
  refused: number;
  /** Passed, but the check could not tell (see the header). */
  unchecked: number;
  /** The first error of the first refused files. */
  missed: string[];
}

async function _measure(corpus: Corpus, workspace: string): Promise<Row> {
  const tools = createTools({ cwd: workspace, permissionMode: "allow" });
  const files = await corpusFiles(corpus);
  const row: Row = {
    language: corpus.language,
    source: corpus.source,
    files: 0,
    refused: 0,
    unchecked: 0,
    missed: [],
  };
  for (const [i, file] of files.entries()) {
    let content: string;
    try {
      content = new TextDecoder("utf-8", { fatal: true }).decode(
        await Deno.readFile(file),
      );
    } catch {
      continue; // not UTF-8 text: not what the check reads
    }
    row.files++;
    const path = `${i}-${basename(file)}`;
    let failure: string | undefined;
    try {
      const result = await tools.WriteFile.execute({ path, content });
      failure = result.newSyntaxErrors;
      if (
        failure === undefined && !(await _clean(join(workspace, path), content))
      ) {
        row.unchecked++;
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!message.includes("allowSyntaxErrors")) throw error;
      failure = message.split("\n").slice(1, 4).join("\n");
    } finally {
      await Deno.remove(join(workspace, path)).catch(() => {});
    }
    if (failure === undefined) continue;
    row.refused++;
    if (row.missed.length < MAX_SHOWN) {
      row.missed.push(`${file}\n${failure.split("\n").slice(0, 3).join("\n")}`);
    }
  }
  return row;
}

// Whether the text written has no error as the check sees it (false when the
// check cannot run).
async function _clean(path: string, newText: string): Promise<boolean> {
  try {
    const found = await findSyntaxErrors(path, { newText });
    return found === undefined || found.after === 0;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const wanted = Deno.args.filter((arg) => !arg.startsWith("--"));
  const workspace = await Deno.makeTempDir({ prefix: "fello_refusal_" });
  try {
    for (const corpus of BODIES) {
      if (wanted.length > 0 && !wanted.includes(corpus.language)) continue;
      const row = await _measure(corpus, workspace);
      if (row.files === 0) continue;
      const rate = (100 * row.refused / Math.max(1, row.files)).toFixed(2);
      const policy = SYNTAX_POLICY[corpus.language];
      console.log(
        `| ${row.language} | ${policy} | ${rate}% (${row.files} files, ${row.refused} refusals) | ${row.source} |${
          row.unchecked ? ` ${row.unchecked} unchecked` : ""
        }`,
      );
      if (SHOW_MISSED) {
        for (const missed of row.missed) console.log(`    ${missed}`);
      }
    }
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
  Deno.exit(0);
}
