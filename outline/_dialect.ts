// Two extensions name more than one language, and the wrong grammar loses
// most symbols, so a file's start decides:
// - `.h` is C by the specification's table, but C++ projects use it too, and
//   the C grammar reads a class, a namespace or a template as errors, leaving
//   symbols without names. A header whose start shows C++ beyond doubt is
//   outlined as C++; any other stays C. An Objective-C header (an
//   `@interface`, `@protocol` or `@implementation` line) is outlined as
//   Objective-C (see languages/objc.ts): the C grammar alone loses it.
// - `.js` is JavaScript, but a file whose leading comment says `@flow` has
//   Flow type annotations, which the JavaScript grammar reads as errors. It
//   is outlined with the TSX grammar (see languages/flow.ts).
import { decodeHead, readHead } from "../internal/read_head.ts";
import { codeOnly } from "./languages/c_family/c_code.ts";
import {
  FLOW_KEY,
  languageForExtension,
  OBJC_KEY,
} from "./languages/_registry.ts";

/** How much of a header is looked at: its includes and first declarations. */
const HEADER_HEAD_BYTES = 64 * 1024;
/** How much of a script is looked at: a license comment, then the pragma. */
const SCRIPT_HEAD_BYTES = 8 * 1024;

const SCRIPT_EXTENSIONS = new Set(languageForExtension(".js")!.extensions);

/**
 * Lines that C cannot contain outside a comment: a namespace, a template, a
 * class definition, an access label, `using namespace`, `extern "C++"`, or a
 * standard C++ include (C's own headers end in `.h`). `extern "C"` alone is
 * not one: C headers wrap themselves in it for C++ callers.
 */
const CPP_LINE = new RegExp(
  [
    String.raw`namespace(?:\s+[A-Za-z_][\w:]*)?\s*\{`,
    String.raw`template\s*<`,
    String.raw`class\s+[A-Za-z_]\w*(?:\s+final)?\s*(?:[:{]|$)`,
    String.raw`(?:public|protected|private)\s*:(?!:)`,
    String.raw`using\s+namespace\s`,
    // The literal's contents are blanked: `"C++"` reads `"   "`.
    String.raw`extern\s+" {3}"`,
    String.raw`#\s*include\s*<[a-z_]+>`,
  ].map((marker) => String.raw`^[ \t]*` + marker).join("|"),
  "m",
);

/**
 * A line that starts an Objective-C class, category or protocol, maybe
 * after availability macros (`NS_CLASS_AVAILABLE_IOS(2_0) @interface`).
 */
const OBJC_LINE =
  /^[ \t]*(?:[A-Z_][A-Za-z0-9_]*\b(?:[ \t]*\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))?[ \t]*)*@(?:interface|protocol|implementation)\b/m;

/** A shebang, then whitespace and comments: where Flow looks for `@flow`. */
const LEADING_COMMENTS =
  /^(?:#![^\n]*\n)?(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))*/;

/** Whether the start of a header's text is C++ rather than C. */
export function isCppHeader(head: string): boolean {
  return CPP_LINE.test(codeOnly(head));
}

/** Whether the start of a header's text has Objective-C declarations. */
export function isObjcHeader(head: string): boolean {
  return OBJC_LINE.test(codeOnly(head));
}

/** Whether a script's leading comments mark it as Flow-typed (`@flow`). */
export function isFlowScript(head: string): boolean {
  const comments = LEADING_COMMENTS.exec(head)![0];
  return /@flow\b/.test(comments) && !/@noflow\b/.test(comments);
}

/**
 * The extension to outline a file as, given the one its name has:
 * {@linkcode OBJC_KEY} for an Objective-C header, `.hpp` for a C++ header,
 * {@linkcode FLOW_KEY} for a Flow-typed script, otherwise
 * the same (also when the file cannot be read: the worker reports that).
 */
export async function dialectExtension(
  path: string,
  extension: string,
): Promise<string> {
  const bytes = _headBytes(extension);
  if (bytes === undefined) return extension;
  const head = await _head(path, bytes);
  return head === undefined ? extension : _dialectOfHead(head, extension);
}

/** {@linkcode dialectExtension} for a text in hand rather than a file. */
export function textDialectExtension(text: string, extension: string): string {
  const bytes = _headBytes(extension);
  // A character is at least a byte: the head holds no more than the file's.
  return bytes === undefined
    ? extension
    : _dialectOfHead(text.slice(0, bytes), extension);
}

// How much of a file with `extension` tells its dialect; undefined when the
// extension has one language only.
function _headBytes(extension: string): number | undefined {
  if (extension === ".h") return HEADER_HEAD_BYTES;
  return SCRIPT_EXTENSIONS.has(extension) ? SCRIPT_HEAD_BYTES : undefined;
}

function _dialectOfHead(head: string, extension: string): string {
  if (extension === ".h") {
    // Both checks read the same code: comments and literals stripped once.
    const code = codeOnly(head);
    if (OBJC_LINE.test(code)) return OBJC_KEY;
    return CPP_LINE.test(code) ? ".hpp" : extension;
  }
  return isFlowScript(head) ? FLOW_KEY : extension;
}

// The first `bytes` bytes of a file as text, or undefined when unreadable.
async function _head(path: string, bytes: number): Promise<string | undefined> {
  try {
    return decodeHead(await readHead(path, bytes));
  } catch {
    return undefined;
  }
}
