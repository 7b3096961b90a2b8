// outlineSymbols() on declarations that name a file's API without being a
// function or a type: Go's top-level vars and the types an interface embeds,
// Dart's top-level variables.
import { lines, testOutlineFiles } from "../tests/support/outline_languages.ts";

testOutlineFiles([
  // io.go's `var EOF` is the most used symbol of its package, and every
  // `var ErrX = errors.New(...)` sentinel error is part of a package's API.
  {
    name: "outlineSymbols() lists Go's top-level var declarations like consts",
    file: "io.go",
    text: lines(
      "package io",
      "",
      "// EOF is the error returned by Read when no more input is available.",
      'var EOF = errors.New("EOF")',
      "",
      "var (",
      "\t// ErrShortWrite means that a write accepted fewer bytes than requested.",
      '\tErrShortWrite = errors.New("short write")',
      ")",
    ),
    outline: [
      "package io 1-1",
      "var EOF 4-4 // EOF is the error returned by Read when no more input is available.",
      "var ErrShortWrite 8-8 // ErrShortWrite means that a write accepted fewer bytes than requested.",
    ],
  },
  // docker's `type Backend interface { commitBackend; execBackend; ... }` is
  // made of nothing but the interfaces it embeds.
  {
    name:
      "outlineSymbols() lists the types a Go interface embeds, in order with its methods",
    file: "backend.go",
    text: lines(
      "package container",
      "",
      "// Backend is all the methods that need to be implemented.",
      "type Backend interface {",
      "\tcommitBackend",
      "\tio.Closer",
      "\t// Stop stops it.",
      "\tStop() error",
      "}",
    ),
    outline: [
      "package container 1-1",
      "type Backend 4-9 // Backend is all the methods that need to be implemented.",
      "    embed commitBackend 5-5",
      "    embed io.Closer 6-6",
      "    method Stop 8-8 // Stop stops it.",
    ],
  },
  // Riverpod's `final authProvider = ...`, get_it's `final getIt = ...` and
  // theme constants are a Flutter file's API.
  {
    name:
      "outlineSymbols() lists Dart's top-level variables with their ranges and docs",
    file: "main.dart",
    text: lines(
      "/// Lines of output read.",
      "var lines = 0;",
      "final sectionSize = 100;",
      "const String _currentVersion = '0.2.0';",
      "final authProvider = Provider<AuthRepository>((ref) {",
      "  return AuthRepository(ref);",
      "});",
      "late final Logger log;",
      "",
      "void main() {}",
    ),
    outline: [
      "var lines 2-2 // Lines of output read.",
      "final sectionSize 3-3",
      "const _currentVersion 4-4",
      "final authProvider 5-7",
      "final log 8-8",
      "function main 10-10",
    ],
  },
]);
