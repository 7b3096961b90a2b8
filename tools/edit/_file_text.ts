// A file read whole for an edit (EditFile, EditSymbol): its bytes, its text
// decoded without its BOM, its format, and the version read.
import type { ToolContext } from "../context.ts";
import {
  decodeText,
  SNIFF_BYTES,
  sniffFormat,
  type TextFormat,
} from "../../internal/decode.ts";
import {
  fileSystemError,
  type FileTarget,
  refuseOpenedElsewhere,
  statFile,
} from "../file_errors.ts";
import { readWhole } from "../read_at.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { FileStat } from "../types.ts";

/** Files bigger than this are not edited in memory. */
export const MAX_EDIT_BYTES = 256 * 1024 * 1024;

/**
 * A file as read: its bytes, its decoded text (without BOM), its format and,
 * when the backend tells it, the version of the file read.
 */
export interface FileText {
  bytes: Uint8Array;
  text: string;
  format: TextFormat;
  version?: FileStat;
}

/** Reads `target` whole for an edit; `approved` is the real path permission was given for. */
export async function readText(
  context: ToolContext,
  target: FileTarget,
  approved?: string,
): Promise<FileText> {
  const stat = await statFile(context.files, target);
  if (stat.size > MAX_EDIT_BYTES) {
    throw new ToolError(
      `Cannot edit "${target.display}": it is ${stat.size} bytes, too big to edit in memory; use Shell (for example sed) for such files`,
    );
  }
  let bytes: Uint8Array;
  let version: FileStat | undefined;
  try {
    const file = await context.files.open(target.path);
    try {
      await refuseOpenedElsewhere(context, target, file, approved);
      // Before the read: a change during it makes the version differ.
      version = await file.stat?.();
      bytes = await readWhole(file, version?.size ?? stat.size);
    } finally {
      file.close();
    }
  } catch (error) {
    throw fileSystemError(target, error);
  }
  const format = sniffFormat(bytes.subarray(0, SNIFF_BYTES), target);
  const body = bytes.subarray(format.bomLength);
  const text = decodeText(body, format.encoding);
  // A U+FFFD may stand for bytes that do not decode; then re-encoding would
  // change them. Only that rare case pays for a strict decode.
  if (text.includes("\uFFFD")) {
    try {
      decodeText(body, format.encoding, { fatal: true });
    } catch {
      throw new ToolError(
        `Cannot edit "${target.display}": it is not valid ${format.encoding.toUpperCase()} text, and editing it would change bytes outside the edit; use Shell if you must change it`,
      );
    }
  }
  return version === undefined
    ? { bytes, text, format }
    : { bytes, text, format, version };
}
