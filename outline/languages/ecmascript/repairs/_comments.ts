// A rough test of whether an offset of a TypeScript text is in a comment,
// shared by the text repairs (a doc is read from the repaired text, so a
// repair leaves comments alone). Runs inside the outline worker only.

// Whether an offset of `text` is in a comment: after `//` on its line, or on
// a line of a block comment (one that starts with `*` or `/*`). A rough test,
// enough for the doc comments a symbol's summary comes from. Offsets come in
// increasing order (as replace() gives them): each line is read once, not
// once per match (a minified line holds thousands).
export function commentTest(text: string): (offset: number) => boolean {
  let lineEnd = -1;
  let commentLine = false;
  let slashes = -1;
  return (offset) => {
    if (offset > lineEnd) {
      const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
      lineEnd = text.indexOf("\n", offset);
      if (lineEnd === -1) lineEnd = text.length;
      const line = text.slice(lineStart, lineEnd);
      const first = line.trimStart();
      commentLine = first.startsWith("*") || first.startsWith("/*");
      const at = line.indexOf("//");
      slashes = at === -1 ? Infinity : lineStart + at;
    }
    return commentLine || slashes < offset;
  };
}
