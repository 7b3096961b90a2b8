// Whether ripgrep can run here: the tests of the rg tool skip their rg calls
// on a machine without it.

/** Whether `rg --version` runs. */
export function hasRipgrep(): boolean {
  try {
    return new Deno.Command("rg", { args: ["--version"], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}
