import assert from "node:assert/strict";
import { rgReads } from "./_rg_args.ts";

Deno.test("rgReads() takes the first positional as the pattern unless -e or -f gives one", () => {
  assert.deepEqual(rgReads(["-i", "TODO", "src", "lib"]).paths, [
    "src",
    "lib",
  ]);
  assert.deepEqual(rgReads(["-F", "-e", "/usr/bin/env"]).paths, []);
  assert.deepEqual(rgReads(["--regexp=/etc/passwd", "src"]).paths, ["src"]);
  assert.deepEqual(rgReads(["--files", "/outside"]).paths, ["/outside"]);
  assert.deepEqual(
    rgReads(["-C", "2", "-g", "/x/*.ts", "pat", "--", "-d"]).paths,
    [
      "-d",
    ],
  );
});

Deno.test("rgReads() finds files read for patterns and ignore rules, attached or not", () => {
  assert.deepEqual(rgReads(["-f/abs/pats"]).paths, ["/abs/pats"]);
  assert.deepEqual(rgReads(["-if", "/abs/pats", "dir"]).paths, [
    "/abs/pats",
    "dir",
  ]);
  assert.deepEqual(rgReads(["--ignore-file", "/x/ign", "p"]).paths, ["/x/ign"]);
  // An option it does not know: its attached value is checked, to be safe.
  assert.deepEqual(rgReads(["--future-flag=/x/y", "p"]).paths, ["/x/y"]);
});

Deno.test("rgReads() tells when symlinks are followed", () => {
  assert.equal(rgReads(["-L", "p"]).follows, true);
  assert.equal(rgReads(["-iL", "p"]).follows, true);
  assert.equal(rgReads(["--follow", "--no-follow", "p"]).follows, false);
  assert.equal(rgReads(["-e", "L", "p"]).follows, false);
});
