// search() without ripgrep on several scan threads: the same result, in the
// same order, as one file at a time on this thread, on a real tree (this
// repository's own source, its .gitignore files included).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { contextOf } from "../context_of.ts";
import { createTools } from "../create_tools.ts";
import { createSearch, type SearchInput, type SearchResult } from "./search.ts";
import { walkFiles } from "./walk.ts";
import { scanFile } from "./_search_file.ts";

const REPOSITORY = fileURLToPath(new URL("../../", import.meta.url));
const context = contextOf(
  createTools({ cwd: REPOSITORY, permissionMode: "readOnly" }),
)!;

/** The matches and counts of a plain walk, scanning each file in turn here. */
async function oneAtATime(
  input: SearchInput & { path: string },
): Promise<
  Pick<SearchResult, "matches" | "truncated" | "filesSearched" | "binaryFiles">
> {
  const source = input.regex
    ? input.pattern
    : input.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(
    source,
    input.caseSensitive === false ? "gmiu" : "gmu",
  );
  const limit = input.maxResults ?? 100;
  const result = {
    matches: [] as SearchResult["matches"],
    truncated: false,
    filesSearched: 0,
    binaryFiles: 0,
  };
  const root = `${REPOSITORY}${input.path}`;
  for await (const file of walkFiles(root, { workspace: REPOSITORY })) {
    const scan = await scanFile(file, pattern, { limit: limit + 1 });
    if (scan.binary) {
      result.binaryFiles++;
      continue;
    }
    result.filesSearched++;
    for (const match of scan.matches) {
      if (result.matches.length === limit) {
        result.truncated = true;
        return result;
      }
      const path = file.slice(REPOSITORY.length);
      result.matches.push({ path, line: match.line, text: match.text });
    }
  }
  return result;
}

const SEARCHES: (SearchInput & { path: string })[] = [
  { pattern: "export function", path: "tools", maxResults: 1000 },
  { pattern: "runtime.", path: "internal", maxResults: 1000 },
  { pattern: "zqxj-absent-kw", path: "tools" },
  {
    pattern: "TODO|assert\\.\\w+\\(",
    regex: true,
    path: "tools",
    maxResults: 1000,
  },
  {
    pattern: "export\\s+function\\s+(\\w+)\\(",
    regex: true,
    path: "tools",
    maxResults: 1000,
  },
  { pattern: "DENO", caseSensitive: false, path: "internal", maxResults: 1000 },
];

for (const input of SEARCHES) {
  Deno.test(`search() on 1, 2 and 4 scan threads answers what one file at a time does: ${JSON.stringify(input)}`, async () => {
    const expected = await oneAtATime(input);
    assert.ok(expected.filesSearched! > 30, "a tree of some size");
    for (const threads of [1, 2, 4]) {
      const search = createSearch(context, { ripgrep: false, threads });
      const got = await search.execute(input);
      assert.deepEqual(
        {
          matches: got.matches,
          truncated: got.truncated,
          filesSearched: got.filesSearched,
          binaryFiles: got.binaryFiles,
        },
        expected,
        `${threads} threads`,
      );
    }
  });
}

Deno.test("search() on two scan threads stops at maxResults as one thread does", async () => {
  const input = { pattern: "const", path: "tools", maxResults: 37 };
  const [one, two] = await Promise.all(
    [1, 2].map((threads) =>
      createSearch(context, { ripgrep: false, threads }).execute(input)
    ),
  );
  assert.equal(two.matches.length, 37);
  assert.equal(two.truncated, true);
  assert.deepEqual(two.matches, one.matches);
  assert.deepEqual(two.matches, (await oneAtATime(input)).matches);
});
