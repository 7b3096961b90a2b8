// listPage()'s cursors whatever text the saved times hold: non-Latin-1
// characters, lone surrogates, no time at all; tampered cursors refused.
import assert from "node:assert/strict";
import { LIST_PAGE, listPage } from "./_acp_list.ts";

Deno.test("listPage() gives a cursor whatever the saved time's text", () => {
  const listings = Array.from({ length: LIST_PAGE + 1 }, (_, i) => ({
    path: `/saved/s${i}.json`,
    cwd: "/w",
    updated: "2026年1月1日",
  }));
  const first = listPage(listings, {});
  assert.equal(first.sessions.length, LIST_PAGE);
  const second = listPage(listings, { cursor: first.nextCursor });
  assert.equal(second.sessions.length, 1);
});

Deno.test("listPage() refuses tampered cursors and pages past sessions with no saved time", () => {
  const listings = Array.from({ length: LIST_PAGE + 2 }, (_, i) => ({
    path: `/saved/s${String(i).padStart(2, "0")}.json`,
    cwd: "/w",
    // Old files without a time list last, ties by id.
    updated: i < 2 ? "2026-01-01T00:00:00.000Z" : "",
  }));
  const first = listPage(listings, {});
  const second = listPage(listings, { cursor: first.nextCursor });
  assert.equal(second.nextCursor, undefined);
  const order = [...first.sessions, ...second.sessions].map((s) => s.sessionId);
  assert.equal(new Set(order).size, LIST_PAGE + 2);
  assert.deepEqual(order.slice(0, 3), ["s00", "s01", "s02"]);
  for (
    const cursor of [
      btoa(JSON.stringify(["2026", "../x"])),
      btoa(JSON.stringify(["2026", "a", "b"])),
      btoa(JSON.stringify({ 0: "2026", 1: "a" })),
      btoa(JSON.stringify([1, "a"])),
      "not base64!",
      btoa("[not json"),
    ]
  ) {
    assert.throws(() => listPage(listings, { cursor }), /unknown cursor/);
  }
});

Deno.test("listPage() pages through sessions whose times hold non-Latin-1 text and lone surrogates", () => {
  const times = ["2026-01-01 日本", "2026-01-01 😀", "2026-01-01 \ud800", ""];
  const listings = Array.from({ length: LIST_PAGE * 2 + 3 }, (_, i) => ({
    path: `/saved/s${String(i).padStart(3, "0")}.json`,
    cwd: "/w",
    updated: times[i % times.length],
  }));
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 5; page++) {
    const result = listPage(listings, { cursor });
    seen.push(...result.sessions.map((s) => s.sessionId));
    cursor = result.nextCursor ?? undefined;
    if (cursor === undefined) break;
    assert.match(cursor, /^[A-Za-z0-9+/]+=*$/);
  }
  assert.equal(cursor, undefined);
  assert.equal(seen.length, listings.length);
  assert.equal(new Set(seen).size, listings.length);
  // Latin-1 bytes that are not UTF-8 are refused, not misread.
  assert.throws(
    () => listPage(listings, { cursor: btoa('["\xe9","s001"]') }),
    /unknown cursor/,
  );
});
