// listPage(): a page of saved sessions for session/list, newest first, with
// cursors that survive sessions coming and going.
import assert from "node:assert/strict";
import type { SessionListing } from "../agent/session_file.ts";
import { LIST_PAGE, listPage } from "./_acp_list.ts";

/** Listings s000..s(n-1), three to a saved time, so ties are common. */
function listings(n: number, cwd = "/work"): SessionListing[] {
  return Array.from({ length: n }, (_, i) => ({
    path: `/saved/s${String(i).padStart(3, "0")}.json`,
    cwd,
    updated: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3)))
      .toISOString(),
  }));
}

function ids(page: { sessions: { sessionId: string }[] }): string[] {
  return page.sessions.map((s) => s.sessionId);
}

Deno.test("listPage() pages newest first, ties by id, each session once", () => {
  const all = listings(120);
  const pages = [listPage(all, {})];
  while (pages.at(-1)!.nextCursor) {
    pages.push(listPage(all, { cursor: pages.at(-1)!.nextCursor }));
  }
  assert.deepEqual(pages.map((p) => p.sessions.length), [LIST_PAGE, 50, 20]);
  const order = pages.flatMap(ids);
  // Newest time first; within a time (three ids), ascending id.
  const expected = Array.from({ length: 40 }, (_, t) => 39 - t)
    .flatMap((t) =>
      [0, 1, 2].map((k) => `s${String(t * 3 + k).padStart(3, "0")}`)
    );
  assert.deepEqual(order, expected);
});

Deno.test("listPage() goes on after the last session given when sessions come and go", () => {
  const all = listings(70);
  const first = listPage(all, {});
  // Meanwhile: a new session saved, and two of the first page deleted.
  const later = [
    ...all.filter((l) => !/s06[89]/.test(l.path)),
    {
      path: "/saved/new.json",
      cwd: "/work",
      updated: "2026-02-01T00:00:00.000Z",
    },
  ];
  const second = listPage(later, { cursor: first.nextCursor });
  assert.equal(second.nextCursor, undefined);
  // Exactly what page two was before: nothing repeated, nothing skipped.
  const before = listPage(all, { cursor: first.nextCursor });
  assert.deepEqual(ids(second), ids(before));
  assert.equal(second.sessions.length, 20);
});

Deno.test("listPage() gives an empty page past the end and refuses cursors it never gave", () => {
  const all = listings(51);
  const first = listPage(all, {});
  const [lastOne] = ids(listPage(all, { cursor: first.nextCursor }));
  // The one session left for page two was deleted meanwhile.
  const fewer = all.filter((l) => !l.path.endsWith(`/${lastOne}.json`));
  assert.deepEqual(listPage(fewer, { cursor: first.nextCursor }), {
    sessions: [],
  });
  const neverGiven = [
    "3",
    "not-ours",
    btoa("[1,2]"),
    btoa('["2026"]'),
    btoa('["2026","../etc/passwd"]'),
  ];
  for (const cursor of neverGiven) {
    assert.throws(() => listPage(all, { cursor }), /unknown cursor/, cursor);
  }
});

Deno.test("listPage() keeps one folder's sessions, with or without a final slash", () => {
  const all = [...listings(3, "/a/b"), ...listings(2, "/a/c")];
  assert.equal(listPage(all, { cwd: "/a/b/" }).sessions.length, 3);
  assert.equal(listPage(all, { cwd: "/a/c" }).sessions.length, 2);
  assert.equal(listPage(all, { cwd: "/a" }).sessions.length, 0);
});
