// Whether ripgrep can run here: the tests of the rg tool skip their rg calls
// on a machine without it.
import { has } from "./has.ts";

/** Whether `rg` is on PATH. */
export function hasRipgrep(): boolean {
  return has("rg");
}

/** Whether `rg` is on PATH, read once. */
export const HAS_RIPGREP: boolean = has("rg");
