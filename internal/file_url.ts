import { fileURLToPath } from "node:url";
import { ToolError } from "./tool_error.ts";

/**
 * Whether `path` is a `file:` URI: the scheme in any case, then one slash
 * (`file:/x`), two (`file://host/x`) or three (`file:///x`).
 */
export function isFileUrl(path: string): boolean {
  return /^file:\//i.test(path);
}

/** Converts a `file://` URI to a path, or explains why it cannot. */
export function fromFileUrl(url: string, tool: string): string {
  try {
    return fileURLToPath(url);
  } catch {
    throw new ToolError(
      `${tool} cannot use ${
        JSON.stringify(url)
      }: it is not a valid file:// URI; pass a path instead`,
    );
  }
}
