// EditFile: literal search-and-replace in one file, keeping its encoding, BOM
// and line endings; atomic, serialized per file, and answered with a diff.
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import { closestText, SEARCH_MAX_CHARS } from "./_closest_text.ts";
import { countChar } from "../../internal/count_char.ts";
import { encodeFile, encodeText } from "../../internal/decode.ts";
import { defineTool } from "../define.ts";
import { clipDiff, diffWasCut, editDiff } from "./_diff.ts";
import { applyEdit, eachMatch, type EditPlan, planEdit } from "./_edit_text.ts";
import { type FileTarget, fileTarget } from "../file_errors.ts";
import { type FileText, MAX_EDIT_BYTES, readText } from "./_file_text.ts";
import { runEdit } from "./_write_edit.ts";
import { formatSize } from "../../internal/format_size.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { SyntaxCheckFields, Tool } from "../types.ts";
import {
  checkSyntax,
  type SyntaxCheck,
  syntaxFields,
  syntaxText,
} from "../_syntax_check.ts";
import DESCRIPTION from "./edit_file.txt" with { type: "text" };

/**
 * Input of EditFile.
 *
 * Executing EditFile requires `--allow-read` and `--allow-write` for the
 * file's folder (the atomic write renames a temp file there).
 *
 * @example Rename every use of a word
 * ```ts
 * import { createTools, type EditFileInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.txt`, "colour and colour\n");
 * const input: EditFileInput = {
 *   path: "a.txt",
 *   oldText: "colour",
 *   newText: "color",
 *   replaceAll: true,
 * };
 * await createTools({ cwd, permissionMode: "acceptEdits" }).EditFile.execute(input);
 * assert.equal(await Deno.readTextFile(`${cwd}/a.txt`), "color and color\n");
 * ```
 */
export interface EditFileInput {
  /** The file: relative to the workspace (or `cwd`), absolute, or a `file://` URI. */
  path: string;
  /** The exact text to replace (literal, not a pattern). */
  oldText: string;
  /** The text to put in its place, inserted as typed. */
  newText: string;
  /** Replace every match instead of requiring exactly one. */
  replaceAll?: boolean;
  /** Resolve a relative `path` against this folder (itself relative to the workspace). */
  cwd?: string;
  /**
   * Write the edit even if it adds syntax errors (a deliberate intermediate
   * state, or syntax the grammar does not know yet); else such an edit of a
   * file in one of the outline's languages is refused.
   */
  allowSyntaxErrors?: boolean;
}

/**
 * Result of EditFile.
 *
 * Requires `--allow-read` and `--allow-write` for the file's folder.
 *
 * @example Replace one exact snippet
 * ```ts
 * import { createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.ts`, "const x = 1;\n");
 * const tools = createTools({ cwd, permissionMode: "acceptEdits" });
 * const { replacements, diff } = await tools.EditFile.execute({
 *   path: "a.ts",
 *   oldText: "x = 1",
 *   newText: "x = 2",
 * });
 * assert.equal(replacements, 1);
 * assert.match(diff, /^-const x = 1;$/m);
 * assert.match(diff, /^\+const x = 2;$/m);
 * ```
 */
export interface EditFileResult extends SyntaxCheckFields {
  /** The file, relative to the workspace when inside it, else absolute. */
  path: string;
  /** How many matches were replaced. */
  replacements: number;
  /**
   * A unified diff of the change, with 3 lines of context; past about 1 MiB
   * it stops with a line saying how many replacements it leaves out.
   */
  diff: string;
}

const NAME = "EditFile";
const MAX_LISTED_LINES = 20;
/** Matches counted before an edit without replaceAll is refused ("at least"). */
const MAX_COUNTED = 10_000;
/** The most of a diff the model is shown (the result keeps more). */
const MAX_DIFF_CHARS = 32 * 1024;

const schema = z.object({
  path: z.string().describe("The file to edit"),
  oldText: z.string().describe("Exact text to replace"),
  newText: z.string().describe("Replacement text"),
  replaceAll: z.boolean().optional().describe("Replace every match"),
  cwd: z.string().optional().describe("Folder for a relative path"),
  allowSyntaxErrors: z.boolean().optional().describe(
    "Write even if the edit adds syntax errors",
  ),
});

/** Creates the EditFile tool for a context. */
export function createEditFile(
  context: ToolContext,
): Tool<EditFileInput, EditFileResult> {
  return defineTool({
    name: NAME,
    kind: "edit",
    description: DESCRIPTION,
    schema,
    run: (input, { signal }) => editFile(context, input, signal),
    toModelText: editFileText,
  });
}

async function editFile(
  context: ToolContext,
  input: EditFileInput,
  signal: AbortSignal | undefined,
): Promise<EditFileResult> {
  const target = fileTarget(context, {
    tool: NAME,
    verb: "edit",
    path: input.path,
    cwd: input.cwd,
  });
  checkTexts(input, target);
  const check = (edit: PlannedEdit) =>
    checkEditSyntax(target, edit, { input, signal });
  return await runEdit(context, target, {
    tool: NAME,
    description: `Edit "${target.display}"`,
    signal,
    plan: (approved) => plannedEdit(context, target, input, approved),
    check,
    finish: async (edit) => {
      const { diff } = editDiff(
        target.display,
        edit.file.text,
        edit.plan.matches,
        { total: edit.plan.count },
      );
      const bytes = encodeEdit(edit.file, edit.plan);
      const syntax = await check(edit);
      return {
        bytes,
        result: {
          path: target.display,
          replacements: edit.plan.count,
          diff,
          ...syntaxFields(syntax),
        },
      };
    },
    // The same edit applies to the new text only if oldText matches as it
    // did (as many places).
    same: (first, again) => again.plan.count === first.plan.count,
  });
}

/** An edit planned on a file as read. */
interface PlannedEdit {
  file: FileText;
  plan: EditPlan;
}

// The syntax check of an edit planned on the file as read (see
// tools/_syntax_check.ts); throws when it would add errors.
function checkEditSyntax(
  target: FileTarget,
  { file, plan }: PlannedEdit,
  { input, signal }: { input: EditFileInput; signal?: AbortSignal },
): Promise<SyntaxCheck> {
  return checkSyntax(target, {
    oldText: file.text,
    newText: () => applyEdit(file.text, plan),
    allowSyntaxErrors: input.allowSyntaxErrors,
    signal,
  });
}

/** The file as read now, and the edit planned on it; throws if it cannot apply. */
async function plannedEdit(
  context: ToolContext,
  target: FileTarget,
  input: EditFileInput,
  approved?: string,
): Promise<PlannedEdit> {
  const file = await readText(context, target, approved);
  const plan = planEdit(file.text, input.oldText, input.newText, {
    countLimit: input.replaceAll === true ? Infinity : MAX_COUNTED,
  });
  checkMatches(plan, file.text, input, target);
  checkNewSize(file, plan, target);
  return { file, plan };
}

/**
 * The edited file's bytes. For ASCII text, character offsets are byte offsets,
 * so the old bytes are spliced directly (no decode-encode of the whole file);
 * otherwise the edited text is encoded, which is lossless for valid text.
 */
function encodeEdit(file: FileText, plan: EditPlan): Uint8Array {
  const { bytes, text, format } = file;
  const bom = format.bomLength;
  if (format.encoding !== "utf-8" || bytes.length - bom !== text.length) {
    return encodeFile(applyEdit(text, plan), format);
  }
  const insert = new TextEncoder().encode(plan.newText);
  const oldLength = plan.oldText.length;
  const delta = insert.length - oldLength;
  const out = new Uint8Array(bytes.length + plan.count * delta);
  out.set(bytes.subarray(0, bom));
  let from = 0;
  let to = bom;
  // Found again rather than kept: millions of matches would cost more
  // memory than the file.
  for (const index of eachMatch(text, plan.oldText)) {
    const head = bytes.subarray(bom + from, bom + index);
    out.set(head, to);
    out.set(insert, to + head.length);
    to += head.length + insert.length;
    from = index + oldLength;
  }
  out.set(bytes.subarray(bom + from), to);
  return out;
}

function checkTexts(input: EditFileInput, target: FileTarget): void {
  if (input.oldText.length === 0) {
    throw new ToolError(
      `Cannot edit "${target.display}": oldText is empty; give the exact text to replace, or use WriteFile to write the whole file`,
    );
  }
  if (input.oldText === input.newText) {
    throw new ToolError(
      `Cannot edit "${target.display}": oldText and newText are the same, so nothing would change; give the new text in newText`,
    );
  }
}

/**
 * Refuses an edit whose result would pass MAX_EDIT_BYTES, from its size
 * computed before anything is built: a replaceAll of a common oldText with a
 * longer newText multiplies the file (to GBs, or an allocation failure).
 */
function checkNewSize(
  file: FileText,
  plan: EditPlan,
  target: FileTarget,
): void {
  const { encoding } = file.format;
  const growth = encodeText(plan.newText, encoding).length -
    encodeText(plan.oldText, encoding).length;
  const size = file.bytes.length + plan.count * growth;
  if (size <= MAX_EDIT_BYTES) return;
  throw new ToolError(
    `Cannot edit "${target.display}": the edit would make it ${
      formatSize(size)
    } (${size} bytes, ${plan.count} replacements), over the ${
      formatSize(MAX_EDIT_BYTES)
    } EditFile handles; replace fewer places (a longer oldText, or without replaceAll), or use Shell (for example sed) if you mean it`,
  );
}

function checkMatches(
  plan: EditPlan,
  text: string,
  input: EditFileInput,
  target: FileTarget,
): void {
  const { count } = plan;
  if (count === 0) throw noMatchError(text, input.oldText, target);
  if (count > 1 && input.replaceAll !== true) {
    const many = count >= MAX_COUNTED;
    const places = many ? `at least ${count}` : `${count}`;
    throw new ToolError(
      `Cannot edit "${target.display}": oldText matches ${places} places (${
        matchLines(plan)
      }); add surrounding lines to oldText so it matches one place, or set replaceAll: true to replace ${
        many ? "every one" : `all ${count}`
      }`,
    );
  }
  if (count === 1 && input.replaceAll !== true) {
    checkOverlap(plan, text, target);
  }
}

// One match counted, yet oldText starts again inside it ("  }\n  }" in three
// "  }" lines): the model cannot know which place it meant.
function checkOverlap(plan: EditPlan, text: string, target: FileTarget): void {
  const first = plan.matches[0].index;
  const again = text.indexOf(plan.oldText, first + 1);
  if (again === -1) return;
  const line = plan.matches[0].line + countChar(text, "\n", first, again);
  throw new ToolError(
    `Cannot edit "${target.display}": oldText matches 2 overlapping places (lines ${
      plan.matches[0].line
    }, ${line}); add surrounding lines to oldText so it matches one place (replaceAll replaces only places that do not overlap)`,
  );
}

/** "lines 4, 19" or "lines 1, 5 (3 times)"; long lists are cut. */
function matchLines(plan: EditPlan): string {
  const perLine = new Map<number, number>();
  for (const match of plan.matches) {
    perLine.set(match.line, (perLine.get(match.line) ?? 0) + 1);
  }
  const shown = [...perLine].slice(0, MAX_LISTED_LINES).map(([line, times]) =>
    times === 1 ? `${line}` : `${line} (${times} times)`
  );
  const more = plan.count > plan.matches.length || plan.count >= MAX_COUNTED
    ? " and more"
    : perLine.size > MAX_LISTED_LINES
    ? ` and ${perLine.size - MAX_LISTED_LINES} more lines`
    : "";
  return `${perLine.size === 1 ? "line" : "lines"} ${shown.join(", ")}${more}`;
}

function noMatchError(
  text: string,
  oldText: string,
  target: FileTarget,
): ToolError {
  const where = `Cannot edit "${target.display}": oldText was not found`;
  if (text.length > SEARCH_MAX_CHARS) {
    return new ToolError(
      `${where}, and the file is too big to look for similar text; read the lines you mean to change with ReadFile (line and limit) and copy them exactly`,
    );
  }
  const closest = closestText(text, oldText);
  if (!closest) {
    return new ToolError(
      `${where}, and nothing similar is in the file; read the file again to see its current content`,
    );
  }
  const one = closest.startLine === closest.endLine;
  const lines = one
    ? `line ${closest.startLine}`
    : `lines ${closest.startLine}-${closest.endLine}`;
  const hold = one ? "holds" : "hold";
  const differ = one ? "differs" : "differ";
  const why = closest.mismatch === "line-endings"
    ? `${lines} ${hold} the same text and ${differ} only in line endings (CRLF vs LF)`
    : closest.mismatch === "whitespace"
    ? `${lines} ${hold} the same text and ${differ} only in whitespace (indentation, spaces or line breaks)`
    : `the closest text is at ${lines}`;
  return new ToolError(
    `${where}; ${why}:\n${closest.excerpt}\nCopy the text exactly as in the file (without the line numbers and the tab after them) into oldText and try again`,
  );
}

/** The text the model sees: what changed and the diff. */
export function editFileText(result: EditFileResult): string {
  let added = 0;
  let removed = 0;
  for (const line of result.diff.split("\n")) {
    if (line.startsWith("+") && !line.startsWith("+++")) added++;
    else if (line.startsWith("-") && !line.startsWith("---")) removed++;
  }
  const times = result.replacements === 1
    ? "1 replacement"
    : `${result.replacements} replacements`;
  const lines = diffWasCut(result.diff)
    ? `+${added} -${removed} lines in the part of the diff shown`
    : `+${added} -${removed} lines`;
  return `Edited "${result.path}": ${times} (${lines}).${syntaxText(result)}\n${
    clipDiff(result.diff, MAX_DIFF_CHARS)
  }`;
}
