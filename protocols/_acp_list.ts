// One page of ACP `session/list`. Sessions are ordered newest first, ties by
// id, and the cursor is the last session given (its time and id), not an
// offset: a session saved or deleted between two requests does not shift the
// next page, which neither repeats nor skips a session that stayed put. (A
// session saved meanwhile moves to the top, before the pages still to come.)
import * as acp from "@agentclientprotocol/sdk";
import { basename, resolve } from "node:path";
import type { SessionListing } from "../agent/session_file.ts";
import { isSessionId } from "./_acp_session.ts";

/** Sessions per page. */
export const LIST_PAGE = 50;

/** Where a page starts: after the session with this time and id. */
type Position = [updated: string, sessionId: string];

/**
 * The page of `listings` that `params` asks for. Throws an invalid-params
 * error for a cursor this function never gave.
 */
export function listPage(
  listings: readonly SessionListing[],
  params: { cwd?: string | null; cursor?: string | null },
): acp.ListSessionsResponse {
  const after = params.cursor ? readCursor(params.cursor) : undefined;
  // "/a/b/" and "/a/b" are one folder.
  const folder = params.cwd ? resolve(params.cwd) : undefined;
  const matching = listings.flatMap((listing) => {
    const sessionId = basename(listing.path, ".json");
    if (!isSessionId(sessionId)) return [];
    if (folder && resolve(listing.cwd) !== folder) return [];
    const info: acp.SessionInfo = { sessionId, cwd: listing.cwd };
    if (listing.title !== undefined) info.title = listing.title;
    if (listing.updated) info.updatedAt = listing.updated;
    return [{ info, position: [listing.updated, sessionId] as Position }];
  }).sort((a, b) => compare(a.position, b.position));
  const start = after === undefined
    ? 0
    : matching.findIndex(({ position }) => compare(position, after) > 0);
  const page = start === -1 ? [] : matching.slice(start, start + LIST_PAGE);
  const more = start !== -1 && start + LIST_PAGE < matching.length;
  return {
    sessions: page.map(({ info }) => info),
    ...(more ? { nextCursor: writeCursor(page.at(-1)!.position) } : {}),
  };
}

// Newest first (ISO times compare as strings), then by id.
function compare(a: Position, b: Position): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? 1 : -1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

// Base64 of the position's JSON in UTF-8 (btoa() alone takes Latin-1 only,
// and a hand-edited file may hold any time text).
function writeCursor(position: Position): string {
  const bytes = new TextEncoder().encode(JSON.stringify(position));
  return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""));
}

function readCursor(cursor: string): Position {
  let position: unknown;
  try {
    const bytes = Uint8Array.from(atob(cursor), (char) => char.charCodeAt(0));
    position = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    );
  } catch {
    position = undefined;
  }
  if (
    !Array.isArray(position) || position.length !== 2 ||
    typeof position[0] !== "string" || typeof position[1] !== "string" ||
    !isSessionId(position[1])
  ) {
    throw acp.RequestError.invalidParams(
      undefined,
      `unknown cursor "${cursor}"; list again without one`,
    );
  }
  return position as Position;
}
