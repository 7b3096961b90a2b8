import { runtime } from "./runtime/runtime.ts";
/** Whether anything (a file, folder or link) exists at `path`; false when it cannot be told. */
export async function exists(path: string): Promise<boolean> {
  try {
    await runtime.lstat(path);
    return true;
  } catch {
    return false;
  }
}
