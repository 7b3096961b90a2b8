// The write that ends an edit (EditFile, EditSymbol): atomic, and only over
// the version of the file the edit was made on; when another process wrote
// the file meanwhile, the edit is made again on what is there now.
import type { ToolContext } from "../context.ts";
import { fileSystemError, type FileTarget } from "../file_errors.ts";
import { FileChangedError } from "../_file_identity.ts";
import { forgetLineIndex } from "../../internal/line_index.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { FileText } from "./_file_text.ts";

/** Times an edit is re-applied to a file that keeps changing before it fails. */
const MAX_REAPPLY = 10;

/** The error of an edit whose file changed under it so that it cannot apply. */
export function changedOnDisk(target: FileTarget): ToolError {
  return new ToolError(
    `Cannot ${target.verb} "${target.display}": it changed on disk while the edit was prepared; read it again`,
  );
}

/** How {@linkcode writeEdit} makes, writes and re-makes an edit. */
export interface WriteEditSteps<Edit extends { file: FileText }, Result> {
  /** The real path the write was approved for, if the gate resolved one. */
  realPath: string | undefined;
  /** The edit as planned on the file read. */
  edit: Edit;
  /**
   * The bytes to write and the result to answer. Everything that can fail
   * (out of memory included) happens here, before the write: an edit that
   * lands while its caller gets an error is applied twice by a retry.
   */
  finish(edit: Edit):
    | { bytes: Uint8Array; result: Result }
    | Promise<
      { bytes: Uint8Array; result: Result }
    >;
  /** The same edit planned on the file as it is now; throws if it no longer applies. */
  reapply(): Promise<Edit>;
}

/**
 * Writes an edit over the version of the file it was planned on, re-planning
 * it (up to 10 times) when the file changed since; fails with
 * {@linkcode changedOnDisk} when it no longer applies.
 */
export async function writeEdit<Edit extends { file: FileText }, Result>(
  context: ToolContext,
  target: FileTarget,
  steps: WriteEditSteps<Edit, Result>,
): Promise<Result> {
  const { path } = target;
  const { realPath } = steps;
  let edit = steps.edit;
  for (let attempt = 1;; attempt++) {
    const { bytes, result } = await steps.finish(edit);
    try {
      // Replaced only if it is still the version read (another process
      // may have written it since): else read again and re-apply.
      await context.files.writeFile(path, bytes, {
        ...(realPath === undefined ? {} : { realPath }),
        ...(edit.file.version === undefined
          ? {}
          : { expect: edit.file.version }),
      });
      return result;
    } catch (error) {
      if (!(error instanceof FileChangedError)) {
        throw fileSystemError(target, error);
      }
      if (attempt === MAX_REAPPLY) throw changedOnDisk(target);
      try {
        edit = await steps.reapply();
      } catch {
        throw changedOnDisk(target);
      }
    } finally {
      forgetLineIndex(context.files, path);
    }
  }
}
