import assert from "node:assert/strict";
import { join } from "node:path";
import { openedFileSize, openedFileSizeSync } from "./open_file_size.ts";

// Deno denies FsFile.stat() on a file opened through a symlinked folder when
// only the link is granted: run with that grant alone.
Deno.test("openedFileSize() sizes a file opened through a symlink under a grant on the link only", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(root, "real"));
    await Deno.writeTextFile(join(root, "real/a.txt"), "12345");
    await Deno.symlink(join(root, "real"), join(root, "link"));
    const path = join(root, "link/a.txt");
    const helper = new URL("./open_file_size.ts", import.meta.url).href;
    const script = `import { openedFileSize, openedFileSizeSync } from ${
      JSON.stringify(helper)
    };
using file = await Deno.open(Deno.args[0]);
const denied = await file.stat().then(() => false, (e) => e instanceof Deno.errors.NotCapable);
console.log(JSON.stringify([denied, await openedFileSize(file, Deno.args[0]), openedFileSizeSync(file, Deno.args[0])]));
`;
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        `--allow-read=${join(root, "link")},${
          new URL(".", import.meta.url).pathname
        }`,
        "--ext=ts",
        "-",
        path,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(script));
    await writer.close();
    const { code, stdout, stderr } = await child.output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    // The descriptor's stat is denied (why the helper exists); the sizes are right.
    assert.deepEqual(JSON.parse(new TextDecoder().decode(stdout)), [
      true,
      5,
      5,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("openedFileSize() reads the descriptor's size when Deno grants it", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(path, "abc");
    using file = await Deno.open(path);
    assert.equal(await openedFileSize(file, path), 3);
    assert.equal(openedFileSizeSync(file, path), 3);
  } finally {
    await Deno.remove(path);
  }
});
