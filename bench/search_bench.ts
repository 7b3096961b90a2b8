// Speed of the `search` tool on a large tree of real code: 15 published npm
// packages (33,579 files, 692 MB: TypeScript, React Native, Next.js, Monaco,
// the AWS SDK, ...), each group against ripgrep run by hand with the filters
// search gives it (.gitignore files, hidden files searched, .git and
// node_modules skipped, binary files skipped), as the baseline. Beside it:
// search on ripgrep (its own spawn, JSON parsing and sorting on top), and
// search in-process, as it runs where ripgrep is missing (the walk here, the
// scan on worker threads). Figures: bench/README.md.
//
// Run: deno bench -A bench/search_bench.ts (the first run fetches the
// packages with `npm pack` into .bench-data/, about 50 s).
import { contextOf } from "../tools/context_of.ts";
import { createTools } from "../tools/create_tools.ts";
import { createSearch, type SearchInput } from "../tools/search/search.ts";
import { packageTree } from "../tests/support/npm_package.ts";

const TREE = await packageTree("search-tree", [
  "typescript@5.6.2",
  "@types/node@22.10.1",
  "react-native@0.76.5",
  "core-js@3.39.0",
  "rxjs@7.8.1",
  "lodash@4.17.21",
  "date-fns@2.30.0",
  "aws-sdk@2.1692.0",
  "next@15.0.3",
  "monaco-editor@0.52.0",
  "three@0.170.0",
  "echarts@5.5.1",
  "antd@5.22.2",
  "pdfjs-dist@4.8.69",
  "@angular/core@19.0.0",
]);
const context = contextOf(
  createTools({ cwd: TREE, permissionMode: "readOnly" }),
)!;
const onRipgrep = createSearch(context);
const inProcess = createSearch(context, { ripgrep: false });

/** ripgrep with the filters search passes it (see tools/search/_rg_search.ts). */
async function rg(input: SearchInput): Promise<void> {
  const args = [
    "--no-config",
    "--line-number",
    "--hidden",
    "--no-ignore-dot",
    "--no-ignore-global",
    "--no-require-git",
    "--crlf",
    "--glob=!.git",
    "--glob=!node_modules",
    "--max-count=101",
    "--case-sensitive",
    // The tree sits in the git-ignored .bench-data/: the rules above it
    // ignore the tree itself, so search applies none of them.
    "--no-ignore-parent",
  ];
  if (!input.regex) args.push("--fixed-strings");
  args.push("--regexp", input.pattern, "--", TREE);
  const output = await new Deno.Command("rg", {
    args,
    stdout: "null",
    stderr: "null",
  }).output();
  // 1: nothing matched.
  if (output.code > 1) throw new Error(`rg exited with ${output.code}`);
}

const SEARCHES: [string, SearchInput][] = [
  ["a literal that matches nothing", { pattern: "zqxjNOMATCHkw" }],
  ["a regex that matches nothing", {
    pattern: "zqxj[A-Z]+MATCH\\w*kw",
    regex: true,
  }],
];

for (const [group, input] of SEARCHES) {
  Deno.bench({
    group,
    name: "rg, the same filters",
    baseline: true,
    n: 5,
    warmup: 1,
    // An async function: deno bench awaits only those.
    fn: async () => {
      await rg(input);
    },
  });
  Deno.bench({
    group,
    name: "search on ripgrep",
    n: 5,
    warmup: 1,
    fn: async () => {
      await onRipgrep.execute(input);
    },
  });
  Deno.bench({
    group,
    name: "search in-process (no ripgrep)",
    n: 5,
    warmup: 1,
    fn: async () => {
      await inProcess.execute(input);
    },
  });
}
