// A `.h` header is C by the specification's table, but C++ projects use the
// same extension, and the C grammar reads a class, a namespace or a template
// as errors, leaving symbols without names. A header whose start shows C++
// beyond doubt is outlined with the C++ grammar; any other stays C.

/** How much of a header is looked at: its includes and first declarations. */
const HEAD_BYTES = 64 * 1024;

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
    String.raw`extern\s+"C\+\+"`,
    String.raw`#\s*include\s*<[a-z_]+>`,
  ].map((marker) => String.raw`^[ \t]*` + marker).join("|"),
  "m",
);

/** Whether the start of a header's text is C++ rather than C. */
export function isCppHeader(head: string): boolean {
  return CPP_LINE.test(_withoutComments(head));
}

/**
 * The extension to outline a `.h` file as: `.hpp` when its first 64 KB are
 * C++, else `.h` (also when it cannot be read: the worker reports that).
 */
export async function headerExtension(path: string): Promise<".h" | ".hpp"> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path);
    const buffer = new Uint8Array(HEAD_BYTES);
    let filled = 0;
    while (filled < buffer.length) {
      const read = await file.read(buffer.subarray(filled));
      if (read === null) break;
      filled += read;
    }
    const head = new TextDecoder().decode(buffer.subarray(0, filled));
    return isCppHeader(head) ? ".hpp" : ".h";
  } catch {
    return ".h";
  } finally {
    file?.close();
  }
}

// Blanks out comments, so a `class Foo {` in a comment's example is not taken
// for code. Strings are left alone: a marker must start its line anyway.
function _withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?(?:\*\/|$)|\/\/[^\n]*/g, " ");
}
