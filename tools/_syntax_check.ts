// The syntax check of the tools that replace a file (WriteFile, EditFile,
// EditSymbol): before the write, the new text is parsed (from the old text's
// tree where the worker keeps one) and an edit that adds syntax errors is
// refused, unless the caller allows it or the language only reports.
import {
  findSyntaxErrors,
  syntaxCheckable,
  type SyntaxErrorsFound,
} from "../outline/syntax_errors.ts";
import type { SyntaxErrorInfo } from "../outline/types.ts";
import { ToolError } from "../internal/tool_error.ts";
import type { FileTarget } from "./file_errors.ts";
import type { SyntaxCheckFields } from "./types.ts";

/**
 * What the check does with new errors, per language (the outline's language
 * keys): "refuse" fails the call and writes nothing; "report" writes and says
 * what the grammar found, for a grammar that misreads more than 1% of valid
 * published files written as new ones (bench/syntax_refusal.ts; the rates are
 * in bench/README.md): C and C++ (macros, and `#ifdef` blocks that open a
 * brace), Swift, JavaScript with Flow types (read with the TSX grammar).
 * Objective-C headers report: the outline reads them with the C grammar
 * and a line scanner of its own, so the C grammar's errors mean little there.
 */
export const SYNTAX_POLICY: Readonly<Record<string, "refuse" | "report">> = {
  typescript: "refuse",
  tsx: "refuse",
  javascript: "refuse",
  python: "refuse",
  go: "refuse",
  kotlin: "refuse",
  dart: "refuse",
  c: "report",
  cpp: "report",
  objc: "report",
  swift: "report",
  flow: "report",
};

/** What the caller checks: the text replaced (none for a new file) and the new one. */
export interface SyntaxCheckInput {
  /** The file's text before the call, without its byte order mark. */
  oldText?: string;
  /**
   * The text the call would write, or how to build it (called only for a
   * file that may be checked, so a huge or unknown file costs no copy).
   */
  newText: string | (() => string);
  /** Write even when the new text has new errors (the tool input of that name). */
  allowSyntaxErrors?: boolean;
  /** Stops waiting for the parse. */
  signal?: AbortSignal;
}

/** What a check that lets the call go on found. */
export interface SyntaxCheck {
  /** The errors the written text has (0 when not checked). */
  remaining: number;
  /**
   * For a language that reports (see SYNTAX_POLICY), or a call that allowed
   * errors: the new errors, each with its source line and a caret.
   */
  added?: string;
}

/** No check: what a call that was not checked reports. */
const UNCHECKED: SyntaxCheck = { remaining: 0 };

/** New errors shown in a message at most. */
const MAX_SHOWN = 10;

/**
 * Checks `newText` against `oldText` for the file `target`: throws a
 * ToolError listing the new errors when the new text has more than the old
 * one (any, for a new file) in a language that refuses, unless
 * `allowSyntaxErrors`. A text that cannot be checked (an unknown language,
 * binary, too big, a parse over its budget or a failed worker) passes
 * unchecked: the check guards edits, it never blocks them for its own faults.
 */
export async function checkSyntax(
  target: FileTarget,
  input: SyntaxCheckInput,
): Promise<SyntaxCheck> {
  const { oldText, signal } = input;
  if (!syntaxCheckable(target.path, oldText?.length ?? 0)) return UNCHECKED;
  const newText = typeof input.newText === "string"
    ? input.newText
    : input.newText();
  let found: SyntaxErrorsFound | undefined;
  try {
    found = await findSyntaxErrors(target.path, { oldText, newText }, {
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    return UNCHECKED;
  }
  if (found === undefined) return UNCHECKED;
  const { after, before } = found;
  if (after <= before) return { remaining: after };
  const refuses = SYNTAX_POLICY[found.languageId] !== "report";
  if (refuses && input.allowSyntaxErrors !== true) {
    throw new ToolError(_refusal(target, found, oldText === undefined));
  }
  return { remaining: after, added: formatSyntaxErrors(found.added) };
}

function _refusal(
  target: FileTarget,
  found: SyntaxErrorsFound,
  created: boolean,
): string {
  const { language, before, after } = found;
  const what = created
    ? `the new file would have ${_errors(after)} (${language} grammar)`
    : `the ${target.verb === "edit" ? "edit" : "new content"} would add ${
      _errors(after - before)
    } (${language} grammar: ${before} before, ${after} after)`;
  return `Cannot ${target.verb} "${target.display}": ${what}, so nothing was written:\n${
    formatSyntaxErrors(found.added)
  }\nFix the text and try again; to write it anyway (a deliberate intermediate state, or syntax the grammar does not know yet), pass allowSyntaxErrors: true`;
}

/**
 * The errors one after the other, each as `line:column: what`, its source
 * line and a caret under the column (the line's tabs kept, so it lines up).
 */
function formatSyntaxErrors(errors: SyntaxErrorInfo[]): string {
  const shown = errors.slice(0, MAX_SHOWN).map((error) => {
    const what = error.missing !== undefined
      ? `missing "${error.missing}"`
      : error.unexpected
      ? `unexpected "${error.unexpected}"`
      : "syntax error";
    const pad = error.source.slice(0, error.caret).replace(/[^\t]/g, " ");
    return `${error.line}:${error.column}: ${what}\n  ${error.source}\n  ${pad}^`;
  });
  if (errors.length > MAX_SHOWN) {
    shown.push(`(and ${errors.length - MAX_SHOWN} more)`);
  }
  return shown.join("\n");
}

/** The fields of a tool's result for `check`: none when no error remains. */
export function syntaxFields(check: SyntaxCheck): SyntaxCheckFields {
  return {
    ...(check.remaining > 0 ? { syntaxErrors: check.remaining } : {}),
    ...(check.added === undefined ? {} : { newSyntaxErrors: check.added }),
  };
}

/**
 * What a tool's model text ends with after a checked write: how many errors
 * remain, and the new ones written anyway.
 */
export function syntaxText(result: SyntaxCheckFields): string {
  if (result.syntaxErrors === undefined) return "";
  const left = `\nThe file has ${_errors(result.syntaxErrors)} left`;
  return result.newSyntaxErrors === undefined
    ? `${left}.`
    : `${left}; new ones written anyway:\n${result.newSyntaxErrors}`;
}

function _errors(count: number): string {
  return count === 1 ? "1 syntax error" : `${count} syntax errors`;
}
