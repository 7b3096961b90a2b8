// EditSymbol: replaces a symbol found by its name path (doc comment
// included), or inserts new lines before or after it; the same gates, lock,
// atomic write, encoding and line endings as EditFile.
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import { encodeFile } from "../../internal/decode.ts";
import { defineTool } from "../define.ts";
import { clipDiff, editDiff, type Replacement } from "./_diff.ts";
import { lineEnding, withLineEnding } from "./_edit_text.ts";
import { type FileTarget, fileTarget } from "../file_errors.ts";
import { type FileText, readText } from "./_file_text.ts";
import { runEdit } from "./_write_edit.ts";
import { findSymbol, type FoundSymbol } from "../_find_symbol.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { SymbolRange, SyntaxCheckFields, Tool } from "../types.ts";
import {
  checkSyntax,
  type SyntaxCheck,
  syntaxFields,
  syntaxText,
} from "../_syntax_check.ts";
import DESCRIPTION from "./edit_symbol.txt" with { type: "text" };

/**
 * Where EditSymbol puts `newText`: in place of the symbol (doc comment
 * included), or as new lines before its doc comment or after its end.
 *
 * A type only: needs no permission.
 *
 * @example Insert a function after another
 * ```ts
 * import type { EditSymbolPosition } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const position: EditSymbolPosition = "after";
 * assert.ok(["replace", "before", "after"].includes(position));
 * ```
 */
export type EditSymbolPosition = "replace" | "before" | "after";

/**
 * Input of EditSymbol.
 *
 * Executing EditSymbol requires `--allow-read` and `--allow-write` for the
 * file's folder (the atomic write renames a temp file there).
 *
 * @example Replace a function whole
 * ```ts
 * import { createTools, type EditSymbolInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.ts`, "/** One. *\/\nexport function one() {\n  return 1;\n}\n");
 * const input: EditSymbolInput = {
 *   path: "a.ts",
 *   symbol: "one",
 *   newText: "export function one(): number {\n  return 1;\n}\n",
 * };
 * await createTools({ cwd, permissionMode: "acceptEdits" }).EditSymbol.execute(input);
 * assert.equal(await Deno.readTextFile(`${cwd}/a.ts`), "export function one(): number {\n  return 1;\n}\n");
 * ```
 */
export interface EditSymbolInput {
  /** The file: relative to the workspace (or `cwd`), absolute, or a `file://` URI. */
  path: string;
  /** The symbol's name path (`Class.method`), a unique suffix of it, maybe with `@LINE`. */
  symbol: string;
  /**
   * The complete new definition (`replace`: doc comment included), or the
   * lines to insert; written as typed, its line breaks in the file's.
   */
  newText: string;
  /** `replace` (the default), `before` the doc comment, or `after` the end. */
  position?: EditSymbolPosition;
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
 * Result of EditSymbol.
 *
 * Requires `--allow-read` and `--allow-write` for the file's folder.
 *
 * @example Add a method after another
 * ```ts
 * import { createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.py`, "class A:\n    def f(self):\n        pass\n");
 * const tools = createTools({ cwd, permissionMode: "acceptEdits" });
 * const { symbol, diff } = await tools.EditSymbol.execute({
 *   path: "a.py",
 *   symbol: "A.f",
 *   position: "after",
 *   newText: "\n    def g(self):\n        pass\n",
 * });
 * assert.deepEqual(symbol, { name: "A.f", kind: "method", startLine: 4, endLine: 6 });
 * assert.match(diff, /^\+    def g\(self\):$/m);
 * ```
 */
export interface EditSymbolResult extends SyntaxCheckFields {
  /** The file, relative to the workspace when inside it, else absolute. */
  path: string;
  /**
   * The symbol addressed (its full name path and kind) and the lines the new
   * text takes now; an empty range (`endLine` = `startLine` - 1) when an
   * empty `newText` removed the symbol.
   */
  symbol: SymbolRange;
  /** A unified diff of the change, with 3 lines of context. */
  diff: string;
}

const NAME = "EditSymbol";
/** The most of a diff the model is shown (the result keeps more). */
const MAX_DIFF_CHARS = 32 * 1024;

const schema = z.object({
  path: z.string().describe("The file to edit"),
  symbol: z.string().min(1, "must not be empty").describe(
    "Name path of the symbol, e.g. Class.method, or parse@120",
  ),
  newText: z.string().describe(
    "The complete new definition, or the lines to insert",
  ),
  position: z.enum(["replace", "before", "after"]).optional().describe(
    "replace (default), before or after the symbol",
  ),
  cwd: z.string().optional().describe("Folder for a relative path"),
  allowSyntaxErrors: z.boolean().optional().describe(
    "Write even if the edit adds syntax errors",
  ),
});

/** Creates the EditSymbol tool for a context. */
export function createEditSymbol(
  context: ToolContext,
): Tool<EditSymbolInput, EditSymbolResult> {
  return defineTool({
    name: NAME,
    kind: "edit",
    description: DESCRIPTION,
    schema,
    run: (input, { signal }) => editSymbol(context, input, signal),
    toModelText: editSymbolText,
  });
}

async function editSymbol(
  context: ToolContext,
  input: EditSymbolInput,
  signal: AbortSignal | undefined,
): Promise<EditSymbolResult> {
  const target = fileTarget(context, {
    tool: NAME,
    verb: "edit",
    path: input.path,
    cwd: input.cwd,
  });
  const check = (edit: SymbolEdit) =>
    checkEditSyntax(target, edit, { input, signal });
  return await runEdit(context, target, {
    tool: NAME,
    description: `Edit ${input.symbol} in "${target.display}"`,
    signal,
    plan: (approved) =>
      plannedEdit(context, target, input, { signal, approved }),
    check,
    finish: async (edit) => {
      const { diff } = editDiff(target.display, edit.file.text, [
        edit.replacement,
      ]);
      const bytes = encodeFile(edit.text, edit.file.format);
      const syntax = await check(edit);
      return {
        bytes,
        result: {
          path: target.display,
          symbol: edit.range,
          diff,
          ...syntaxFields(syntax),
        },
      };
    },
    // The same edit applies to the new text only if the name still resolves
    // to the same text as before.
    same: (first, again) => again.old === first.old,
  });
}

// The syntax check of an edit planned on the file as read (see
// tools/_syntax_check.ts), as EditFile's; throws when it would add errors.
function checkEditSyntax(
  target: FileTarget,
  { file, text }: SymbolEdit,
  { input, signal }: { input: EditSymbolInput; signal?: AbortSignal },
): Promise<SyntaxCheck> {
  return checkSyntax(target, {
    oldText: file.text,
    newText: text,
    allowSyntaxErrors: input.allowSyntaxErrors,
    signal,
  });
}

/** An edit by symbol planned on a file as read. */
interface SymbolEdit {
  file: FileText;
  /** The symbol's text before (doc comment included). */
  old: string;
  /** The file's whole text after the edit. */
  text: string;
  replacement: Replacement;
  /** The symbol's name and the new text's lines. */
  range: SymbolRange;
}

/** The file as read now, and the edit planned on it; throws if it cannot apply. */
async function plannedEdit(
  context: ToolContext,
  target: FileTarget,
  input: EditSymbolInput,
  { signal, approved }: { signal?: AbortSignal; approved?: string },
): Promise<SymbolEdit> {
  const file = await readText(context, target, approved);
  const found = await findSymbol(target, file.text, input.symbol, signal);
  const shared = found.sharedWith;
  if (shared !== undefined) {
    const { kind, startLine, endLine } = shared.symbol;
    throw new ToolError(
      `Cannot edit "${target.display}": ${found.kind} ${found.name} shares its lines (${found.startLine}-${found.endLine}) with ${kind} ${shared.path} (lines ${startLine}-${endLine}), and EditSymbol replaces whole lines; use EditFile for this change`,
    );
  }
  return { file, ...planSymbolEdit(file.text, found, input, target) };
}

/**
 * The edit of `found` in `text`: `newText` in the line endings of the symbol
 * (else of the file), made whole lines; a symbol that ends the file without
 * a final newline still does after a replacement.
 */
function planSymbolEdit(
  text: string,
  found: FoundSymbol,
  input: Pick<EditSymbolInput, "newText" | "position">,
  target: Pick<FileTarget, "display">,
): Omit<SymbolEdit, "file"> {
  const position = input.position ?? "replace";
  const old = text.slice(found.start, found.end);
  const eol = lineEnding(old) ?? lineEnding(text) ?? "\n";
  const lines = withLineEnding(input.newText, eol);
  const endsLine = old.endsWith("\n");
  let insert = lines === "" || lines.endsWith(eol) ? lines : lines + eol;
  let index = found.start;
  let oldLength = 0;
  let startLine = found.startLine;
  if (position !== "replace" && insert === "") {
    throw new ToolError(
      `Cannot edit "${target.display}": newText is empty, so there is nothing to insert ${position} ${found.name}; give the lines to insert`,
    );
  }
  if (position === "replace") {
    oldLength = old.length;
    if (!endsLine && insert !== "") insert = insert.slice(0, -eol.length);
    if (insert === old) {
      throw new ToolError(
        `Cannot edit "${target.display}": newText is the text of ${found.kind} ${found.name} as it is, so nothing would change; give the new definition in newText`,
      );
    }
  } else if (position === "after") {
    index = found.end;
    startLine = found.endLine + 1;
    // After a last line without a newline: break that line first.
    if (!endsLine) insert = eol + insert.slice(0, -eol.length);
  }
  const lineCount = lines === "" ? 0 : lines.split(eol).length -
    (lines.endsWith(eol) ? 1 : 0);
  return {
    old,
    text: text.slice(0, index) + insert + text.slice(index + oldLength),
    replacement: {
      index,
      oldLength,
      replacement: insert,
      // The line of the old text that `index` lies on.
      line: position !== "after" || endsLine ? startLine : found.endLine,
    },
    range: {
      name: found.name,
      kind: found.kind,
      startLine,
      endLine: startLine + lineCount - 1,
    },
  };
}

/**
 * The whole text of a file after an EditSymbol call with `input`, from its
 * text before: what an approval shows as the diff. Throws a ToolError when
 * the call cannot apply to that text.
 *
 * Needs no permission (the outline workers require `--allow-read` for this
 * package's own modules).
 *
 * @example Preview the insertion of a function
 * ```ts
 * import { textAfterEditSymbol } from "./edit_symbol.ts";
 * import assert from "node:assert/strict";
 *
 * const before = "package a\n\nfunc A() {}\n";
 * const after = await textAfterEditSymbol("/ws/a.go", before, {
 *   symbol: "A",
 *   position: "after",
 *   newText: "\nfunc B() {}",
 * });
 * assert.equal(after, "package a\n\nfunc A() {}\n\nfunc B() {}\n");
 * ```
 *
 * @param path The file (its extension picks the language).
 * @param before The file's text.
 * @param input The call's symbol, newText and position.
 * @returns The file's text after the call.
 */
export async function textAfterEditSymbol(
  path: string,
  before: string,
  input: Pick<EditSymbolInput, "symbol" | "newText" | "position">,
): Promise<string> {
  const target = { verb: "edit", path, display: path, workspace: path };
  const found = await findSymbol(target, before, input.symbol);
  return planSymbolEdit(before, found, input, target).text;
}

/** The text the model sees: what changed and the diff. */
export function editSymbolText(result: EditSymbolResult): string {
  const { kind, name, startLine, endLine } = result.symbol;
  const lines = endLine < startLine
    ? "removed"
    : `now lines ${startLine}-${endLine}`;
  return `Edited "${result.path}": ${kind} ${name} (${lines}).${
    syntaxText(result)
  }\n${clipDiff(result.diff, MAX_DIFF_CHARS)}`;
}
