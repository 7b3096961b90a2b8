// How an edit of one file (EditFile, EditSymbol) runs: in the file's turn,
// refused before anyone is asked when it cannot apply, then under the file's
// lock planned again on the file as it is, and written atomically over that
// version only; when another process wrote the file meanwhile, the edit is
// made again on what is there now.
import type { AuthorizeRequest, ToolContext } from "../context.ts";
import {
  fileSystemError,
  type FileTarget,
  refuseAborted,
  refuseRetargeted,
} from "../file_errors.ts";
import { FileChangedError } from "../_file_identity.ts";
import { forgetLineIndex } from "../../internal/line_index.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { FileText } from "./_file_text.ts";

/** Times an edit is re-applied to a file that keeps changing before it fails. */
const MAX_REAPPLY = 10;

// Before a re-apply, a random wait of up to 2^attempt ms (at most 256): two
// processes editing one file in a tight loop otherwise keep meeting in the
// same window, and one of them loses every attempt.
function backOff(attempt: number): Promise<void> {
  const most = Math.min(2 ** attempt, 256);
  return new Promise((done) => setTimeout(done, Math.random() * most));
}

/** The error of an edit whose file changed under it so that it cannot apply. */
export function changedOnDisk(target: FileTarget): ToolError {
  return new ToolError(
    `Cannot ${target.verb} "${target.display}": it changed on disk while the edit was prepared; read it again`,
  );
}

/** What {@linkcode runEdit} needs of a tool to plan, check and write its edit. */
export interface EditSteps<Edit extends { file: FileText }, Result> {
  /** The tool's name, for the permission request. */
  tool: string;
  /** What the permission request says, e.g. `Edit "a.ts"`. */
  description: string;
  signal: AbortSignal | undefined;
  /**
   * Reads the file and plans the edit on it; throws when it cannot apply.
   * `approved` is the real path the write was approved for, if any.
   */
  plan(approved?: string): Promise<Edit>;
  /** Refuses a planned edit that must not be written (its syntax check). */
  check(edit: Edit): Promise<unknown>;
  /**
   * The bytes to write and the result to answer. Everything that can fail
   * (out of memory, the syntax check) happens here, before the write: an
   * edit that lands while its caller gets an error is applied twice by a
   * retry.
   */
  finish(edit: Edit): Promise<{ bytes: Uint8Array; result: Result }>;
  /** Whether an edit planned again, on the file changed since, is the same edit. */
  same(first: Edit, again: Edit): boolean;
}

/**
 * Runs an edit of `target` through the gates: the file's turn, the
 * permission request (an edit that cannot apply fails before anyone is
 * asked), the file's lock; then writes it over the version it was planned
 * on, planning it again (up to 10 times) when the file changed since, and
 * failing with {@linkcode changedOnDisk} when it is no longer the same edit.
 *
 * Call it before any await of the tool's own: the calls on a file keep the
 * order they started in, so an edit sees what the calls before it wrote.
 */
export async function runEdit<Edit extends { file: FileText }, Result>(
  context: ToolContext,
  target: FileTarget,
  steps: EditSteps<Edit, Result>,
): Promise<Result> {
  const { path } = target;
  const { signal } = steps;
  using queued = context.queueForFile(path);
  await queued.file.wait(signal);
  refuseAborted(signal, target);
  const request: AuthorizeRequest = {
    tool: steps.tool,
    action: "write",
    path,
    description: steps.description,
  };
  // An edit that cannot happen fails before anyone is asked to approve it
  // (inside the workspace, where reading needs no approval of its own).
  if (await context.wouldAskInside(request)) {
    await steps.check(await steps.plan());
  }
  const authorized = await context.authorize(request, {
    turn: queued.ask,
    signal,
  });
  return await context.lockFile(path, async () => {
    refuseAborted(signal, target);
    // "Outside" was decided before asking; the file may lead elsewhere now,
    // and even reading it there was not approved.
    await refuseRetargeted(context, target, authorized);
    // Read again: the file may have changed while the user decided.
    const realPath = authorized.realPath;
    const first = await steps.plan(realPath);
    let edit = first;
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
        await backOff(attempt);
        edit = await reapplied(target, steps, first);
      } finally {
        forgetLineIndex(context.files, path);
      }
    }
  });
}

// The edit planned again on the file as it is now, if it is the same edit;
// else nothing is written.
async function reapplied<Edit extends { file: FileText }, Result>(
  target: FileTarget,
  steps: EditSteps<Edit, Result>,
  first: Edit,
): Promise<Edit> {
  let again: Edit;
  try {
    again = await steps.plan();
  } catch {
    throw changedOnDisk(target);
  }
  if (!steps.same(first, again)) throw changedOnDisk(target);
  return again;
}
