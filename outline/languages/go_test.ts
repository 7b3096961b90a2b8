// The Go outline: go.extract() on fixtures and snippets and Go files through
// outlineSymbols(): declarations where ctags lists them, docs as godoc reads
// them (directives dropped).
import assert, { deepStrictEqual } from "node:assert/strict";
import {
  extractText,
  fixtureLines,
  outlineFileLines,
  outlineLines,
} from "../../tests/support/outline_languages.ts";
import { go } from "./go.ts";

const lines = (...text: string[]) => text.join("\n") + "\n";

Deno.test("go.extract() lists package, imports, consts, types with members, funcs and methods", async () => {
  deepStrictEqual(await fixtureLines(go, "sample.go"), [
    "package server 2-2 // Package server runs a small HTTP server.",
    'import "context", "fmt", nethttp "net/http", "sync", +1 more 4-10',
    'import "errors" 12-12',
    "const DefaultPort 15-15 // DefaultPort is used when Config.Port is zero.",
    "const ModeDev 19-19 // ModeDev logs every request.",
    "const ModeProd 20-20",
    "const maxA, maxB 21-21",
    "type Mode 27-27 // Mode selects how verbose the server is.",
    "type Config 32-39 // Config holds the settings.",
    "    field Port 34-34 // Port to listen on.",
    "    field Host 35-35",
    "    field Read, Write 36-36",
    "    field Logger 37-37",
    "    field fmt.Stringer 38-38",
    "type Handler 42-46 // Handler answers one request.",
    "    method Serve 44-44 // Serve handles it.",
    "type ID 50-50 // ID names a connection.",
    "type Alias 51-51",
    "type Server 55-58 // Server is the running server.",
    "    field mu 56-56",
    "    field conf 57-57",
    "func New 61-63 // New creates a server.",
    "method (*Server) Start 67-71 // Start starts listening.",
    "method (Server) String 73-73",
    "func Map 76-82 // Map applies f to every element.",
    "method (*List[T]) Push 84-84",
  ]);
});

Deno.test("go.extract() takes a grouped spec's own comment, not the group's", async () => {
  const text = [
    "package p",
    "",
    "// Colors of the UI.",
    "const (",
    "\tRed = iota",
    "\t// Green is calm.",
    "\tGreen",
    ")",
    "",
    "// Lone is alone.",
    "const Lone = 1",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(go, text)), [
    "package p 1-1",
    "const Red 5-5",
    "const Green 7-7 // Green is calm.",
    "const Lone 11-11 // Lone is alone.",
  ]);
});

Deno.test("go.extract() reads a comment group as godoc does: its first line, whatever the comment style", async () => {
  const text = [
    "package p",
    "",
    "// Open opens the store.",
    "/* It locks the file. */",
    "func Open() {}",
    "",
    "/*",
    "Close closes it.",
    "*/",
    "func Close() {}",
    "",
    "// Not the doc: a blank line follows.",
    "",
    "// Sync writes it out.",
    "// It blocks.",
    "func Sync() {}",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(go, text)), [
    "package p 1-1",
    "func Open 5-5 // Open opens the store.",
    "func Close 10-10 // Close closes it.",
    "func Sync 16-16 // Sync writes it out.",
  ]);
});

Deno.test("go.extract() skips directive lines in a doc comment group, as godoc does", async () => {
  const text = [
    "package p",
    "",
    "//go:noinline",
    "// Foo does x.",
    "func Foo() {}",
    "",
    "//nolint:errcheck",
    "// Bar does y.",
    "func Bar() {}",
    "",
    "//export Cgo",
    "// Cgo is exported.",
    "func Cgo() {}",
    "",
  ].join("\n");
  assert.deepEqual(outlineLines(await extractText(go, text)), [
    "package p 1-1",
    "func Foo 5-5 // Foo does x.",
    "func Bar 9-9 // Bar does y.",
    "func Cgo 13-13 // Cgo is exported.",
  ]);
});

Deno.test("go.extract() takes a mixed /* */ and // group's first line, and not a trailing comment", async () => {
  const text = [
    "package p",
    "",
    "type x int // trailing, not Baz's",
    "// Baz does z.",
    "func Baz() {}",
    "",
    "/*",
    "   Qux quxes.",
    "*/",
    "// More.",
    "func Qux() {}",
    "",
  ].join("\n");
  assert.deepEqual(outlineLines(await extractText(go, text)), [
    "package p 1-1",
    "type x 3-3",
    "func Baz 5-5 // Baz does z.",
    "func Qux 11-11 // Qux quxes.",
  ]);
});

Deno.test("go.extract() drops directives as go/ast does, and keeps look-alikes", async () => {
  const source = [
    "package p",
    "",
    "//go:noinline",
    "// Foo does x.",
    "func Foo() {}",
    "",
    "// Bar does y.",
    "//",
    "//go:generate stringer -type=X",
    "//nolint:errcheck",
    "func Bar() {}",
    "",
    "//lint:ignore U1000 unused",
    "func Qux() {}",
    "",
    "// TODO: not a directive",
    "func Todo() {}",
    "",
    "//export",
    "func NoSpace() {}",
    "",
    "//a:B",
    "func Upper() {}",
    "",
    "//line foo.go:10",
    "func Line() {}",
    "",
  ].join("\n");
  assert.deepEqual(outlineLines(await extractText(go, source)), [
    "package p 1-1",
    "func Foo 5-5 // Foo does x.",
    "func Bar 11-11 // Bar does y.",
    "func Qux 14-14",
    "func Todo 17-17 // TODO: not a directive",
    // go/ast: `export` needs a space, `a:B` a lowercase letter or digit.
    "func NoSpace 20-20 // export",
    "func Upper 23-23 // a:B",
    "func Line 26-26",
  ]);
});

Deno.test("outlineSymbols() keeps a URL scheme's slashes at the end of a Go doc line", async () => {
  const text = lines(
    "package opts",
    "",
    "// DefaultHTTPPort is used if only the protocol is given, e.g. tcp://",
    "const DefaultHTTPPort = 2375",
  );
  assert.deepEqual(await outlineFileLines("hosts.go", text), [
    "package opts 1-1",
    "const DefaultHTTPPort 4-4 // DefaultHTTPPort is used if only the protocol is given, e.g. tcp://",
  ]);
});

Deno.test("outlineSymbols() lists Go symbols where ctags does, with godoc's comment", async () => {
  const text = lines(
    "// Package q is here.",
    "package q",
    "",
    'import "io"',
    "",
    "// Kinds of things.",
    "const (",
    "\t// A is first.",
    "\tA, B = 1 << iota, 2",
    "\tC",
    ")",
    "",
    "// T holds it.",
    "type T[P any] struct {",
    "\tio.Reader",
    "\t// n counts.",
    "\tn, m int // trailing",
    "}",
    "",
    "// I does it.",
    "type I interface {",
    "\t// Do it.",
    "\tDo() error",
    "}",
    "",
    "// Len is the length.",
    "//",
    "//go:noinline",
    "func (t *T[P]) Len() int {",
    "\treturn t.n",
    "}",
    "",
    "/* F is a block. */",
    "func F() {}",
  );
  assert.deepEqual(await outlineFileLines("q.go", text), [
    "package q 2-2 // Package q is here.",
    'import "io" 4-4',
    "const A, B 9-9 // A is first.",
    "const C 10-10",
    "type T 14-18 // T holds it.",
    "    field io.Reader 15-15",
    "    field n, m 17-17 // n counts.",
    "type I 21-24 // I does it.",
    "    method Do 23-23 // Do it.",
    "method (*T[P]) Len 29-31 // Len is the length.",
    "func F 34-34 // F is a block.",
  ]);
});
