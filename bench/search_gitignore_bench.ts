// Speed of the `search` tool over 1 000 small files under a big .gitignore,
// next to the same search with no .gitignore (the baseline). Goal: the rules'
// number barely shows (the rules are compiled once, tools/search/_gitignore_rules.ts,
// instead of testing each file against each rule).
//
// Run: deno bench -A bench/search_gitignore_bench.ts
import { join } from "node:path";
import { createTools } from "../tools/create_tools.ts";

const FILES = 1000;
const RULES = 20_000;

/** A workspace of FILES files in src/ with `rules` as its .gitignore. */
function tree(rules: string[]): string {
  const dir = Deno.makeTempDirSync({ prefix: "search_gitignore_bench_" });
  globalThis.addEventListener("unload", () => {
    Deno.removeSync(dir, { recursive: true });
  });
  Deno.mkdirSync(join(dir, "src/deep"), { recursive: true });
  for (let i = 0; i < FILES; i++) {
    const folder = i % 2 === 0 ? "src" : "src/deep";
    Deno.writeTextFileSync(join(dir, folder, `f${i}.ts`), `x ${i}\n`);
  }
  Deno.writeTextFileSync(join(dir, "src/n.ts"), "needle\n");
  Deno.writeTextFileSync(join(dir, ".gitignore"), rules.join("\n"));
  return dir;
}

const numbered = (make: (i: number) => string) =>
  Array.from({ length: RULES }, (_, i) => make(i));

const cases = [
  { name: "no .gitignore rules", rules: [], baseline: true },
  {
    name: '20 000 folder names ("buildN/")',
    rules: numbered((i) => `build${i}/`),
  },
  { name: '20 000 suffixes ("*.extN")', rules: numbered((i) => `*.ext${i}`) },
  {
    name: '20 000 wildcard rules ("genN*/", "/src/gN/*.js")',
    rules: numbered((i) => i % 2 ? `gen${i}*/` : `/src/g${i}/*.js`),
  },
];

for (const { name, rules, baseline } of cases) {
  const tools = createTools({ cwd: tree(rules), permissionMode: "readOnly" });
  Deno.bench({
    group: `search ${FILES} files under a big .gitignore`,
    name,
    baseline,
    fn: async () => {
      const result = await tools.search.execute({ pattern: "needle" });
      if (result.matches.length !== 1) throw new Error("wrong match count");
    },
  });
}
