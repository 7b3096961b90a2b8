// Outliner on Objective-C headers: an incremental re-parse after each edit
// gives what a fresh parse gives.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../tests/support/workspace.ts";
import { Outliner } from "./outliner.ts";

Deno.test("Outliner re-parses an Objective-C header incrementally, matching a fresh parse", async () => {
  const outliner = new Outliner({ workers: 1 });
  try {
    await withWorkspace(async (dir) => {
      const path = join(dir, "a.h");
      const versions = [
        "/// Adds.\nint add(int a, int b);\nstruct S { int x; };\n",
        "/// Adds.\nint add(int a, int b);\n@interface A : NSObject\n- (void)run;\n@end\nstruct S { int x; };\n",
        "/// Adds é.\nint add(int a, int b);\n@interface A : NSObject\n- (void)run;\n@end\n/// T.\nstruct T { int y; };\nstruct S { int x; };\n",
        "int add(int a, int b);\r\n@interface A : NSObject\r\n- (void)run;\r\n@end\r\nstruct S { int x; };\r\n",
        "/// Adds.\nint add(int a, int b);\nstruct S { int x; };\n",
      ];
      for (const [i, text] of versions.entries()) {
        await Deno.writeTextFile(path, text);
        const again = await outliner.outline(path);
        const fresh = new Outliner({ workers: 1 });
        try {
          assert.deepEqual(again, await fresh.outline(path), `version ${i}`);
        } finally {
          await fresh.terminate();
        }
      }
      assert.equal(outliner.incrementalParses, versions.length - 1);
    });
  } finally {
    await outliner.terminate();
  }
});
