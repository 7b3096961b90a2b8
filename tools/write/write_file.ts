// WriteFile: creates or replaces a whole file, atomically, one write of a file
// at a time.
import { z } from "zod";
import type { AuthorizeRequest, ToolContext } from "../context.ts";
import { defineTool } from "../define.ts";
import {
  fileSystemError,
  type FileTarget,
  fileTarget,
  refuseAborted,
  refuseRetargeted,
} from "../file_errors.ts";
import { forgetLineIndex } from "../../internal/line_index.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type {
  FileBackend,
  SyntaxCheckFields,
  Tool,
  WriteOptions,
} from "../types.ts";
import {
  checkSyntax,
  type SyntaxCheck,
  syntaxFields,
  syntaxText,
} from "../_syntax_check.ts";
import { syntaxCheckable } from "../../outline/syntax_errors.ts";
import { decodeText, SNIFF_BYTES, sniffFormat } from "../../internal/decode.ts";
import { readWhole } from "../read_at.ts";
import DESCRIPTION from "./write_file.txt" with { type: "text" };
import { isError, runtime } from "../../internal/runtime/runtime.ts";

/**
 * Input of WriteFile.
 *
 * Executing WriteFile requires `--allow-read` and `--allow-write` for the
 * file's folder (the atomic write renames a temp file there).
 *
 * @example Write a file in a subfolder of the workspace
 * ```ts
 * import { createTools, type WriteFileInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * const input: WriteFileInput = { path: "a.txt", content: "hello\n", cwd: "notes" };
 * await createTools({ cwd, permissionMode: "acceptEdits" }).WriteFile.execute(input);
 * assert.equal(await Deno.readTextFile(`${cwd}/notes/a.txt`), "hello\n");
 * ```
 */
export interface WriteFileInput {
  /** The file: relative to the workspace (or `cwd`), absolute, or a `file://` URI. */
  path: string;
  /** The whole new content, written as UTF-8. */
  content: string;
  /** Resolve a relative `path` against this folder (itself relative to the workspace). */
  cwd?: string;
  /**
   * Write the content even if it has syntax errors the file did not have
   * (any, for a new file): a deliberate intermediate state, or syntax the
   * grammar does not know yet. Else such a write of a file in one of the
   * outline's languages is refused.
   */
  allowSyntaxErrors?: boolean;
}

/**
 * Result of WriteFile.
 *
 * Requires `--allow-read` and `--allow-write` for the file's folder.
 *
 * @example Create a file (parent folders too)
 * ```ts
 * import { createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * const tools = createTools({ cwd, permissionMode: "acceptEdits" });
 * const { created, bytes } = await tools.WriteFile.execute({
 *   path: "notes/todo.md",
 *   content: "- ship it\n",
 * });
 * assert.deepEqual([created, bytes], [true, 10]);
 * ```
 */
export interface WriteFileResult extends SyntaxCheckFields {
  /** The file, relative to the workspace when inside it, else absolute. */
  path: string;
  /** Whether the file did not exist before. */
  created: boolean;
  /** Bytes written. */
  bytes: number;
}

const NAME = "WriteFile";
const WINDOWS = runtime.build.os === "windows";

const schema = z.object({
  path: z.string().describe("The file to write"),
  content: z.string().describe("The whole new content"),
  cwd: z.string().optional().describe("Folder for a relative path"),
  allowSyntaxErrors: z.boolean().optional().describe(
    "Write even if the content adds syntax errors",
  ),
});

/** Creates the WriteFile tool for a context. */
export function createWriteFile(
  context: ToolContext,
): Tool<WriteFileInput, WriteFileResult> {
  return defineTool({
    name: NAME,
    kind: "edit",
    description: DESCRIPTION,
    schema,
    run: (input, { signal }) => writeFile(context, input, signal),
    toModelText: (result) =>
      `${
        result.created ? "Created" : "Overwrote"
      } "${result.path}" (${result.bytes} bytes).${syntaxText(result)}`,
  });
}

async function writeFile(
  context: ToolContext,
  input: WriteFileInput,
  signal: AbortSignal | undefined,
): Promise<WriteFileResult> {
  if (input.path.endsWith("/") || (WINDOWS && input.path.endsWith("\\"))) {
    throw new ToolError(
      `Cannot write "${input.path}": the path ends in "${
        input.path.at(-1)
      }", so it names a folder; give a file path inside it`,
    );
  }
  const target = fileTarget(context, {
    tool: NAME,
    verb: "write",
    path: input.path,
    cwd: input.cwd,
  });
  const { path } = target;
  // Before any await: the calls on this file keep the order they started in.
  using queued = context.queueForFile(path);
  const data = new TextEncoder().encode(input.content);
  await queued.file.wait(signal);
  refuseAborted(signal, target);
  const request: AuthorizeRequest = {
    tool: NAME,
    action: "write",
    path,
    description: `Write ${data.length} bytes to "${target.display}"`,
  };
  // Content the syntax check refuses fails before anyone is asked to approve
  // it (inside the workspace, where reading needs no approval of its own).
  if (await context.wouldAskInside(request)) {
    await checkWrite(context, target, { input, signal });
  }
  const authorized = await context.authorize(request, {
    turn: queued.ask,
    signal,
  });
  return await context.lockFile(path, async () => {
    refuseAborted(signal, target);
    // "Outside" was decided before asking; the file may lead elsewhere now.
    await refuseRetargeted(context, target, authorized);
    const { created, syntax } = await checkWrite(context, target, {
      input,
      signal,
    });
    try {
      await context.files.writeFile(path, data, writeOptions(authorized));
    } catch (error) {
      throw fileSystemError(target, error);
    } finally {
      forgetLineIndex(context.files, path);
    }
    return {
      path: target.display,
      created,
      bytes: data.length,
      ...(syntax === undefined ? {} : syntaxFields(syntax)),
    };
  });
}

// Whether the file is new, and the syntax check of the content against the
// text it replaces (none when that cannot be read); throws on a refusal.
async function checkWrite(
  context: ToolContext,
  target: FileTarget,
  { input, signal }: { input: WriteFileInput; signal?: AbortSignal },
): Promise<{ created: boolean; syntax?: SyntaxCheck }> {
  const created = !(await existsAsFile(context.files, target));
  const old = created ? { text: undefined } : await oldText(context, target);
  if (old === undefined) return { created };
  const syntax = await checkSyntax(target, {
    oldText: old.text,
    newText: input.content,
    allowSyntaxErrors: input.allowSyntaxErrors,
    signal,
  });
  return { created, syntax };
}

// The text the write replaces, for the syntax check; undefined when it
// cannot be read as text, or is not worth reading (no check then).
async function oldText(
  context: ToolContext,
  target: FileTarget,
): Promise<{ text: string } | undefined> {
  try {
    const { size } = await context.files.stat(target.path);
    if (!syntaxCheckable(target.path, size)) return undefined;
    const file = await context.files.open(target.path);
    let bytes: Uint8Array;
    try {
      bytes = await readWhole(file, size);
    } finally {
      file.close();
    }
    const format = sniffFormat(bytes.subarray(0, SNIFF_BYTES), target);
    return {
      text: decodeText(bytes.subarray(format.bomLength), format.encoding),
    };
  } catch {
    return undefined;
  }
}

// The local backend writes exactly the real path decided on.
function writeOptions(authorized: { realPath?: string }): WriteOptions {
  return authorized.realPath === undefined
    ? {}
    : { realPath: authorized.realPath };
}

function isDenoDenial(error: unknown): boolean {
  return error instanceof ToolError && error.message.startsWith("Deno denies");
}

/** Whether the target exists (as a file); refuses a directory, pipe or device. */
async function existsAsFile(
  files: FileBackend,
  target: FileTarget,
): Promise<boolean> {
  try {
    const stat = await files.stat(target.path);
    if (stat.kind === "directory") {
      throw new ToolError(
        `Cannot write "${target.display}": it is a directory; give a file path inside it`,
      );
    }
    // The atomic write would replace a pipe or device with a plain file.
    if (stat.kind === "other") {
      throw new ToolError(
        `Cannot write "${target.display}": it is not a regular file (a device, socket or pipe); WriteFile replaces regular files only`,
      );
    }
    return true;
  } catch (error) {
    if (isError(error, "notFound")) return false;
    if (isError(error, "notADirectory")) return false;
    // Without read permission we cannot tell; the write itself decides.
    if (isDenoDenial(error)) return true;
    throw fileSystemError(target, error);
  }
}
