// The CLI's --help and --version, run as a subprocess.
import assert from "node:assert/strict";
import { fello } from "../tests/support/fello_cli.ts";

Deno.test("fello --help prints usage; --version prints the package version", async () => {
  const { version } = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  );
  const cwd = new URL("..", import.meta.url).pathname;
  const [help, ver] = await Promise.all([
    fello(["--help"], { cwd }),
    fello(["--version"], { cwd }),
  ]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /usage/i);
  assert.equal(ver.code, 0, ver.stderr);
  assert.ok(ver.stdout.includes(version), ver.stdout);
  assert.equal(version, "0.1.0");
});
