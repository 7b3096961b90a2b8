// Outlines of real published code on this machine: the libc headers under
// /usr/include, read as Objective-C (under `@class`) and as plain C.
import assert from "node:assert/strict";
import { cLines, objcLines } from "./support/objc_lines.ts";

// libc6-dev headers, always present on Debian (resolv.h
// is left out: its `__BEGIN_DECLS` case has a test of its own).
const LIBC_HEADERS = [
  "stdio.h",
  "stdlib.h",
  "string.h",
  "unistd.h",
  "signal.h",
  "time.h",
  "pthread.h",
  "fcntl.h",
  "dirent.h",
  "netdb.h",
  "locale.h",
  "wchar.h",
  "math.h",
  "setjmp.h",
  "glob.h",
  "regex.h",
  "search.h",
  "inttypes.h",
  "ctype.h",
  "termios.h",
  "pwd.h",
  "dlfcn.h",
  "sched.h",
  "spawn.h",
  "wordexp.h",
  "iconv.h",
  "x86_64-linux-gnu/sys/socket.h",
  "x86_64-linux-gnu/sys/stat.h",
];

Deno.test("objc.extract() outlines plain C headers under @class as the C outline does", async () => {
  let compared = 0;
  for (const name of LIBC_HEADERS) {
    let text: string;
    try {
      text = await Deno.readTextFile(`/usr/include/${name}`);
    } catch {
      continue;
    }
    const header = `@class Foo;\n${text}`;
    // At least as well: every symbol of the C outline, with its doc if it
    // has one. The Objective-C path blanks glibc's `__BEGIN_DECLS` and
    // `__END_DECLS`, which the grammar otherwise ran the declarations next to
    // them into (pthread.h: pthread_create from the `__BEGIN_DECLS` line, no
    // doc, and pthread_exit lost); there lines and docs may be better.
    const symbol = (line: string) =>
      line.trim().replace(/ \d+-\d+( \/\/ .*)?$/, "");
    const objcSymbols = await objcLines(header);
    const plain = await cLines(header);
    assert.ok(plain.length > 0, `${name}: no C symbols`);
    const names = objcSymbols.map(symbol);
    for (const line of plain) {
      assert.ok(names.includes(symbol(line)), `${name}: ${line} is missing`);
      const doc = line.split(" // ")[1];
      if (doc === undefined) continue;
      assert.ok(
        objcSymbols.some((l) =>
          symbol(l) === symbol(line) && l.endsWith(` // ${doc}`)
        ),
        `${name}: ${line} lost its doc`,
      );
    }
    compared++;
  }
  assert.ok(compared >= 20, `only ${compared} libc headers found`);
});
