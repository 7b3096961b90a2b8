// RegexScanner's idle workers after a cancelled scan: reused by scanners that
// run at once, each gets the answers to its own scans.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../../tests/support/workspace.ts";
import { RegexScanner } from "./_regex_scanner.ts";
import { scanFile } from "./_search_file.ts";

Deno.test("RegexScanner: idle workers reused by concurrent scanners after a cancelled scan answer each its own scan", async () => {
  await withWorkspace(async (dir) => {
    // Long enough that the cancel lands mid-scan: the worker still owes
    // that job's answer when its scanner closes.
    const big = join(dir, "big.txt");
    await Deno.writeTextFile(big, "c\n".repeat(400_000));
    const files: string[] = [];
    for (let i = 0; i < 4; i++) {
      const path = join(dir, `f${i}.txt`);
      await Deno.writeTextFile(
        path,
        `x${i}\nneedle ${i}\n${"y\n".repeat(i)}z${i}\n`,
      );
      files.push(path);
    }
    const cancelled = new RegexScanner();
    const cancel = new AbortController();
    const scan = cancelled.scan(big, /never/gm, {
      limit: 10,
      signal: cancel.signal,
    });
    setTimeout(() => cancel.abort(), 5);
    await assert.rejects(scan, (error: Error) => error.name === "AbortError");
    cancelled.close();
    const patterns = [/needle \d/gm, /^z\d$/gm, /^y$/gm, /x[0-3]/gm];
    for (let round = 0; round < 4; round++) {
      // Two scanners at once, each with its own pattern and files: a reply
      // handed to the wrong scanner would show as a wrong or missing scan.
      const scanners = [new RegexScanner(), new RegexScanner()];
      try {
        const got = await Promise.all(scanners.map((scanner, which) => {
          const pattern = patterns[(round + which * 2) % patterns.length];
          return Promise.all(
            files.map((path) => scanner.scan(path, pattern, { limit: 5 })),
          );
        }));
        for (const [which, scans] of got.entries()) {
          const pattern = patterns[(round + which * 2) % patterns.length];
          for (const [index, path] of files.entries()) {
            assert.deepEqual(
              scans[index],
              await scanFile(path, pattern, { limit: 5 }),
              `round ${round}, ${pattern} on f${index}.txt`,
            );
          }
        }
      } finally {
        for (const scanner of scanners) scanner.close();
      }
    }
  });
});
