// The published code the outline benches measure, per language: npm
// packages unpacked into .bench-data/ (see tests/support/npm_package.ts) and
// sources that Debian packages install.
import { join } from "node:path";
import { BENCH_DATA, packageFile } from "../tests/support/npm_package.ts";

/** The published code measured per language: files or folders, by extension. */
export interface Corpus {
  language: string;
  /** Where the code comes from, for the table. */
  source: string;
  paths: () => Promise<string[]>;
  extensions: string[];
}

export const CORPORA: Corpus[] = [
  {
    language: "typescript",
    source: "typescript@5.6.2 lib/*.d.ts; ai@7.0.173 src/",
    extensions: [".ts"],
    paths: async () => [
      await packageFile("typescript@5.6.2", "lib"),
      await packageFile("ai@7.0.173", "src"),
    ],
  },
  {
    language: "tsx",
    source: "@radix-ui/themes@3.3.0 src/",
    extensions: [".tsx"],
    paths: async () => [await packageFile("@radix-ui/themes@3.3.0", "src")],
  },
  {
    language: "javascript",
    // typescript.js is one function: nothing in it is outside a body.
    source: "ai@7.0.173 dist/ (bundled ESM)",
    extensions: [".js"],
    paths: async () => [await packageFile("ai@7.0.173", "dist")],
  },
  {
    language: "python",
    source: "CPython 3.11 standard library, top level (Debian)",
    extensions: [".py"],
    paths: () => Promise.resolve(["/usr/lib/python3.11"]),
  },
  {
    language: "go",
    source:
      "Go 1.19 standard library: net/, go/, fmt/ (Debian golang-1.19-src)",
    extensions: [".go"],
    paths: () =>
      Promise.resolve(
        ["net", "go", "fmt"].map((dir) => `/usr/share/go-1.19/src/${dir}`),
      ),
  },
  {
    language: "c",
    source: "better-sqlite3@12.4.1 deps/sqlite3/sqlite3.c",
    extensions: [".c"],
    paths: async () => [
      await packageFile("better-sqlite3@12.4.1", "deps/sqlite3/sqlite3.c"),
    ],
  },
  {
    language: "cpp",
    source: "libstdc++ 12 bits/*.h (Debian libstdc++-12-dev)",
    extensions: [".h"],
    paths: () => Promise.resolve(["/usr/include/c++/12/bits"]),
  },
  {
    language: "swift",
    source: "expo-modules-core@3.0.15 ios/",
    extensions: [".swift"],
    paths: async () => [await packageFile("expo-modules-core@3.0.15", "ios")],
  },
  {
    language: "kotlin",
    source: "expo-modules-core@3.0.15 android/",
    extensions: [".kt"],
    paths: async () => [
      await packageFile("expo-modules-core@3.0.15", "android"),
    ],
  },
  {
    // No Dart code is on npm or in Debian: the files are copied by hand from
    // GitHub, one folder per repository (`dart-lang__core/pkgs/...`), and
    // the row is left out when the folder is not there.
    language: "dart",
    source:
      "dart-lang/core pkgs/*/lib/; dart-lang/http, shelf, markdown lib/; flutter/packages go_router, animations lib/ (copied into .bench-data/dart/)",
    extensions: [".dart"],
    paths: () => Promise.resolve([join(BENCH_DATA, "dart")]),
  },
];

// Python's top level only: the subfolders hold tests and vendored code.
const SHALLOW = new Set(["/usr/lib/python3.11"]);

/** The files of `corpus` (all its paths) with one of its extensions, sorted per path. */
export async function corpusFiles(corpus: Corpus): Promise<string[]> {
  const paths: string[] = [];
  for (const path of await corpus.paths()) {
    try {
      await Deno.stat(path);
      paths.push(path);
    } catch {
      console.error(`${path} is not on this machine: left out`);
    }
  }
  return (await Promise.all(
    paths.map((path) => filesUnder(path, corpus.extensions)),
  )).flat();
}

/** The files under `path` (a file or a folder) with one of `extensions`, sorted. */
async function filesUnder(
  path: string,
  extensions: string[],
): Promise<string[]> {
  const info = await Deno.stat(path);
  if (info.isFile) return [path];
  const files: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    const child = join(path, entry.name);
    // Test inputs, often invalid on purpose (Go's testdata/).
    if (entry.isDirectory && !SHALLOW.has(path) && entry.name !== "testdata") {
      files.push(...await filesUnder(child, extensions));
    } else if (
      entry.isFile && extensions.some((ext) => entry.name.endsWith(ext))
    ) {
      files.push(child);
    }
  }
  return files.sort();
}
