// The content fingerprint the cache uses for recently modified files.

/** The SHA-256 of `bytes`, as lower-case hex. */
export async function sha256(
  bytes: Uint8Array<ArrayBuffer>,
): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  )
    .join("");
}
