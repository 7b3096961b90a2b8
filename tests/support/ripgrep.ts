// Whether ripgrep is installed: the rg tool's answers depend on it.

/** Whether `rg --version` runs on this machine. */
export const HAS_RIPGREP: boolean = (() => {
  try {
    return new Deno.Command("rg", { args: ["--version"], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();
