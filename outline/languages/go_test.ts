import { deepStrictEqual } from "node:assert/strict";
import {
  extractText,
  fixtureLines,
  outlineLines,
} from "../../tests/support/outline_languages.ts";
import { go } from "./go.ts";

Deno.test("go.extract() lists package, imports, consts, types with members, funcs and methods", async () => {
  deepStrictEqual(await fixtureLines(go, "sample.go"), [
    "package server 2-2 // Package server runs a small HTTP server.",
    'import "context", "fmt", nethttp "net/http", "sync", +1 more 4-10',
    'import "errors" 12-12',
    "const DefaultPort 15-15 // DefaultPort is used when Config.Port is zero.",
    "const ModeDev 19-19 // ModeDev logs every request.",
    "const ModeProd 20-20",
    "const maxA, maxB 21-21",
    "var ErrClosed 24-24",
    "type Mode 27-27 // Mode selects how verbose the server is.",
    "type Config 32-39 // Config holds the settings.",
    "    field Port 34-34 // Port to listen on.",
    "    field Host 35-35",
    "    field Read, Write 36-36",
    "    field Logger 37-37",
    "    field fmt.Stringer 38-38",
    "type Handler 42-46 // Handler answers one request.",
    "    method Serve 44-44 // Serve handles it.",
    "    embed fmt.Stringer 45-45",
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
