// The repo map on a large real tree (five npm packages, about 11,000 source
// files): a cold map against a plain outline of the same files (the map's own
// overhead: identifiers, ranking, rendering), a warm map of the unchanged
// tree, and a map after one edited file. Figures: bench/README.md.
//
// Run: deno bench -A bench/repo_map_bench.ts (the first run fetches the
// packages with `npm pack` into .bench-data/).
import { join } from "node:path";
import { Outliner } from "../outline/outliner.ts";
import { clearRepoMapCache } from "../tools/repo_map/_cache.ts";
import { mapFiles } from "../tools/repo_map/_files.ts";
import { repoMap } from "../tools/repo_map/repo_map.ts";
import { packageTree } from "../tests/support/npm_package.ts";

const TREE = await packageTree("repo-map-tree", [
  "date-fns@2.30.0",
  "react-native@0.76.5",
  "core-js@3.39.0",
  "lodash@4.17.21",
  "rxjs@7.8.1",
]);
const FILES = await mapFiles(TREE, TREE);
console.log(`repo map bench: ${FILES.length} files in ${TREE}`);

// The plain outline runs on a pool of its own that keeps nothing cached, as
// many calls in flight as the map keeps.
const plain = new Outliner({ cacheSize: 0 });
async function outlineAll(): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < FILES.length) {
        await plain.outline(join(TREE, FILES[next++])).catch(() => {});
      }
    }),
  );
}

Deno.bench({
  group: "cold",
  name: "outline every file the map reads",
  baseline: true,
  n: 2,
  warmup: 1,
  fn: outlineAll,
});

Deno.bench({
  group: "cold",
  name: "repo map, nothing cached",
  n: 2,
  warmup: 1,
  async fn() {
    clearRepoMapCache();
    await repoMap(TREE, { cacheDir: false });
  },
});

Deno.bench({
  group: "warm",
  name: "repo map of the unchanged tree",
  n: 10,
  async fn(b) {
    await repoMap(TREE, { cacheDir: false });
    b.start();
    await repoMap(TREE, { cacheDir: false });
    b.end();
  },
});

const EDITED = join(TREE, FILES.find((file) => file.endsWith(".ts"))!);
const ORIGINAL = await Deno.readTextFile(EDITED);
let edits = 0;
Deno.bench({
  group: "warm",
  name: "repo map after one edited file",
  n: 10,
  async fn(b) {
    await repoMap(TREE, { cacheDir: false });
    await Deno.writeTextFile(
      EDITED,
      `${ORIGINAL}\nexport const edit${edits++} = 1;\n`,
    );
    b.start();
    await repoMap(TREE, { cacheDir: false });
    b.end();
  },
});

addEventListener("unload", () => {
  Deno.writeTextFileSync(EDITED, ORIGINAL);
});
