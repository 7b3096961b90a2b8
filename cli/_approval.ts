// What an approval question shows above itself, so a person sees what they
// approve: the unified diff of a WriteFile, EditFile or EditSymbol (a new
// file's first lines), and for Shell the command, its folder, the variables
// it adds and whether it runs sandboxed. Everything shown is escaped
// (printable), so a file's content cannot move the cursor or fake a line.
import { structuredPatch } from "diff";
import { printable } from "../internal/printable.ts";
import { displayPath } from "../internal/display_path.ts";
import { isError, runtime } from "../internal/runtime/runtime.ts";
import type { AgentEvent, AgentPermissionRequest } from "../agent/types.ts";
import { childToolCallId } from "../agent/tool_call_scope.ts";
import {
  type EditSymbolPosition,
  textAfterEditSymbol,
} from "../tools/edit/edit_symbol.ts";

/** Lines of a diff or a new file shown at most; the rest is counted. */
export const MAX_PREVIEW_LINES = 40;
/** Files larger than this are not read for a diff (the change alone is shown). */
const MAX_DIFF_FILE_BYTES = 2 * 1024 * 1024;
/** Past this many changed lines jsdiff gives up, and the new text is shown instead. */
const MAX_EDIT_LENGTH = 2_000;

/** How the preview is made. */
export interface ApprovalViewOptions {
  /** The workspace, so paths show relative to it. */
  workspace: string;
  /** Colors the diff (red removed, green added, cyan hunk headers). */
  color: boolean;
  /**
   * Reads a file's text: undefined when it does not exist, null when it is
   * not to be diffed (too large, unreadable). By default from disk, up to 2 MB.
   */
  readFile?: (path: string) => Promise<string | null | undefined>;
}

/**
 * The lines (each ending in a newline) shown before the question about
 * `request`, made from the call's `input`; empty when there is nothing more
 * to show than the question's own description.
 */
export async function approvalView(
  request: AgentPermissionRequest,
  input: unknown,
  options: ApprovalViewOptions,
): Promise<string> {
  const fields = typeof input === "object" && input !== null
    ? input as Record<string, unknown>
    : {};
  const paint = painter(options.color);
  switch (request.tool) {
    case "Shell":
      return shellView(request, paint, options.workspace);
    case "WriteFile":
    case "EditFile":
    case "EditSymbol": {
      const path = request.path;
      if (path === undefined) return "";
      const read = options.readFile ?? readSmallFile;
      const name = displayPath(options.workspace, path);
      const before = await read(path).catch(() => null);
      const after = request.tool === "EditSymbol"
        ? await symbolEdited(path, fields, before)
        : newText(request.tool, fields, before);
      if (after !== undefined && before !== null) {
        return fileView(name, before, after, paint);
      }
      if (after !== undefined) {
        return newLinesView(`replaces ${printable(name)}`, after, paint);
      }
      // The file could not be read or the text not found in it: the change alone.
      const { oldText, newText: replacement } = fields;
      if (request.tool === "EditSymbol" && typeof replacement === "string") {
        return newLinesView(
          `new text for ${printable(String(fields.symbol))} in ${
            printable(name)
          }`,
          replacement,
          paint,
        );
      }
      if (typeof oldText !== "string" || typeof replacement !== "string") {
        return "";
      }
      return fileView(
        `${name} (the replaced text)`,
        oldText,
        replacement,
        paint,
      );
    }
  }
  return "";
}

/**
 * The inputs of a run's tool calls by id (a Subagent child's under the id
 * its permission requests carry), for the view of their approvals: a call's
 * `tool-call` event comes before its question.
 */
export class CallInputs {
  #inputs = new Map<string, unknown>();

  /** Notes the input of a `tool-call` event, or a child's. */
  record(event: AgentEvent): void {
    if (event.type === "tool-call") {
      this.#inputs.set(event.toolCallId, event.input);
    } else if (event.type === "subagent" && event.event.type === "tool-call") {
      const id = childToolCallId(
        event.toolCallId,
        event.task,
        event.event.toolCallId,
      );
      this.#inputs.set(id, event.event.input);
    }
  }

  /** The input of the call with `toolCallId`, if it was seen. */
  get(toolCallId: string | undefined): unknown {
    return toolCallId === undefined ? undefined : this.#inputs.get(toolCallId);
  }

  /** Forgets them all (a new run). */
  clear(): void {
    this.#inputs.clear();
  }
}

type Paint = (code: string, text: string) => string;

function painter(color: boolean): Paint {
  return (code, text) => color ? `\x1b[${code}m${text}\x1b[0m` : text;
}

function shellView(
  request: AgentPermissionRequest,
  paint: Paint,
  workspace: string,
): string {
  const lines = [`  ${paint("2", "$")} ${request.command ?? ""}`];
  if (request.path !== undefined) {
    const where = request.outsideWorkspace
      ? " (outside the workspace)"
      : request.path === workspace
      ? " (the workspace)"
      : "";
    lines.push(`  ${paint("2", "in")} ${printable(request.path)}${where}`);
  }
  const added = Object.keys(request.env ?? {});
  if (added.length > 0) {
    lines.push(
      `  ${paint("2", "adds")} ${added.map(printable).join(", ")}`,
    );
  }
  // Told by a Shell that can run commands in an OS sandbox.
  const sandboxed = (request as { sandboxed?: unknown }).sandboxed;
  if (typeof sandboxed === "boolean") {
    lines.push(
      `  ${paint("2", "sandboxed:")} ${sandboxed ? "yes" : paint("33", "no")}`,
    );
  }
  return lines.map((line) => `${line}\n`).join("");
}

/**
 * The file's text after the call, from its input and its text before
 * (undefined: a new file); undefined when it cannot be told.
 */
function newText(
  tool: string,
  fields: Record<string, unknown>,
  before: string | null | undefined,
): string | undefined {
  if (tool === "WriteFile") {
    return typeof fields.content === "string" ? fields.content : undefined;
  }
  const { oldText, newText: replacement } = fields;
  if (typeof oldText !== "string" || typeof replacement !== "string") {
    return undefined;
  }
  if (typeof before !== "string" || oldText === "") return undefined;
  for (const [from, to] of lineEndingVariants(before, oldText, replacement)) {
    const at = before.indexOf(from);
    if (at === -1) continue;
    return fields.replaceAll === true
      ? before.replaceAll(from, to)
      : before.slice(0, at) + to + before.slice(at + from.length);
  }
  return undefined;
}

// The file's text after an EditSymbol call, found as the tool finds it;
// undefined when the symbol is not found in the text before.
async function symbolEdited(
  path: string,
  fields: Record<string, unknown>,
  before: string | null | undefined,
): Promise<string | undefined> {
  const { symbol, newText: replacement, position } = fields;
  if (
    typeof before !== "string" || typeof symbol !== "string" ||
    typeof replacement !== "string"
  ) {
    return undefined;
  }
  return await textAfterEditSymbol(path, before, {
    symbol,
    newText: replacement,
    position: position as EditSymbolPosition | undefined,
  }).catch(() => undefined);
}

// EditFile keeps a CRLF file's line endings: its oldText may be written with
// LF and still match.
function lineEndingVariants(
  text: string,
  from: string,
  to: string,
): [string, string][] {
  const variants: [string, string][] = [[from, to]];
  if (text.includes("\r\n") && !from.includes("\r\n")) {
    const crlf = (s: string) => s.replaceAll("\n", "\r\n");
    variants.push([crlf(from), crlf(to)]);
  }
  return variants;
}

function fileView(
  name: string,
  before: string | undefined,
  after: string,
  paint: Paint,
): string {
  const shownName = printable(name);
  if (before === undefined) {
    return newLinesView(`new file ${shownName}`, after, paint);
  }
  const patch = structuredPatch(name, name, before, after, "", "", {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (patch === undefined) {
    // Too different to diff quickly: what it becomes, from the top.
    return newLinesView(`rewrites ${shownName}`, after, paint);
  }
  if (patch.hunks.length === 0) {
    return `  ${paint("2", `${shownName}: no change`)}\n`;
  }
  const lines = [
    paint("1", `--- ${shownName}`),
    paint("1", `+++ ${shownName}`),
  ];
  for (const hunk of patch.hunks) {
    lines.push(paint(
      "36",
      `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    ));
    for (const line of hunk.lines) {
      // "\ No newline at end of file" is jsdiff's; the rest start with " +-".
      const text = shownLine(line);
      lines.push(
        line[0] === "+"
          ? paint("32", text)
          : line[0] === "-"
          ? paint("31", text)
          : text,
      );
    }
  }
  return clipped(lines);
}

/** A heading, e.g. "new file a.txt, 3 lines:", and the text's first lines. */
function newLinesView(heading: string, text: string, paint: Paint): string {
  const lines = splitLines(text);
  const head = `  ${paint("1", heading)}, ${plural(lines.length, "line")}:`;
  return clipped([head, ...lines.map((line) => paint("32", `+${line}`))]);
}

/** At most MAX_PREVIEW_LINES of `lines`, then a count of the rest. */
function clipped(lines: string[]): string {
  const shown = lines.slice(0, MAX_PREVIEW_LINES);
  const hidden = lines.length - shown.length;
  if (hidden > 0) shown.push(`... ${plural(hidden, "more line")}`);
  return shown.map((line) => `${line}\n`).join("");
}

// A line as shown: escaped, tabs kept (they only move the cursor on), a
// CR before the newline of a CRLF file dropped.
function shownLine(line: string): string {
  return line.replace(/\r$/, "").split("\t").map(printable).join("\t");
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map(shownLine);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

async function readSmallFile(
  path: string,
): Promise<string | null | undefined> {
  let size: number;
  try {
    const info = await runtime.stat(path);
    if (!info.isFile) return null;
    size = info.size;
  } catch (error) {
    return isError(error, "notFound") ? undefined : null;
  }
  if (size > MAX_DIFF_FILE_BYTES) return null;
  return await runtime.readTextFile(path).catch(() => null);
}
