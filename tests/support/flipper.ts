// A process that keeps flipping one workspace entry between itself (a real
// file or folder) and a symlink out of the workspace, for race tests: the
// other process in the workspace (a build watcher, a hostile script) that the
// tools must withstand.

/** Starts flipping `entry` to a symlink to `outside` and back; kill it when done. */
export function startFlipper(
  entry: string,
  outside: string,
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, entry, outside],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

function attempt(step: () => void): void {
  try {
    step();
  } catch {
    // The tools replaced or removed the entry meanwhile: flip on.
  }
}

if (import.meta.main) {
  const [entry, outside] = Deno.args;
  const parked = `${entry}.parked`;
  for (;;) {
    attempt(() => Deno.renameSync(entry, parked)); // the real entry steps aside
    attempt(() => Deno.symlinkSync(outside, entry)); // the entry leads out
    attempt(() => Deno.removeSync(entry));
    attempt(() => Deno.renameSync(parked, entry)); // the real entry is back
  }
}
