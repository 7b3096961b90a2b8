// Text encodings of files: UTF-8 (with or without BOM) and UTF-16 with a BOM.
// Binary files (a NUL byte near the start) and images are refused with advice.
import { extname } from "node:path";
import { utf16Bom } from "./read_head.ts";
import { ToolError } from "./tool_error.ts";

/** How a file's text is stored. */
export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be";

/** The encoding of a text file and the length of its byte order mark. */
export interface TextFormat {
  encoding: TextEncoding;
  /** Bytes of the BOM at the start (0 when there is none). */
  bomLength: number;
}

/** Bytes inspected at the start of a file for a BOM, a NUL byte or image magic. */
export const SNIFF_BYTES = 8192;

const IMAGE_EXTENSIONS = new Set([
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".bmp",
  ".ico",
  ".tif",
  ".tiff",
  ".avif",
  ".heic",
]);

/**
 * Decides how to decode a file from its first bytes. Throws a ToolError for an
 * image (suggesting ImageAnalysis) or a binary file. `verb` and `display` only
 * shape the message ("Cannot read \"a.png\": ...").
 */
export function sniffFormat(
  head: Uint8Array,
  where: { verb: string; display: string; path: string },
): TextFormat {
  const utf16 = utf16Bom(head);
  if (utf16 !== undefined) return { encoding: utf16, bomLength: 2 };
  const utf8Bom = startsWith(head, [0xef, 0xbb, 0xbf]);
  const image = utf8Bom ? undefined : imageType(head, where.path);
  if (image) {
    throw new ToolError(
      `Cannot ${where.verb} "${where.display}": it is an image (${image}), not text; use ImageAnalysis to look at it`,
    );
  }
  // UTF-8 text holds no NUL byte, after a BOM or not.
  const nul = head.indexOf(0);
  if (nul !== -1) {
    throw new ToolError(
      `Cannot ${where.verb} "${where.display}": it looks binary (a NUL byte at offset ${nul}); ReadFile and EditFile handle text only, inspect it with Shell (for example "xxd ${where.display} | head") if you must`,
    );
  }
  return { encoding: "utf-8", bomLength: utf8Bom ? 3 : 0 };
}

/** Decodes bytes (without the BOM) as text; invalid UTF-8 becomes U+FFFD. */
export function decodeText(
  bytes: Uint8Array,
  encoding: TextEncoding,
  options: { fatal?: boolean } = {},
): string {
  return new TextDecoder(encoding, {
    fatal: options.fatal ?? false,
    ignoreBOM: true,
  }).decode(bytes);
}

/** The BOM bytes that start a file in `format`. */
export function bomBytes(format: TextFormat): Uint8Array {
  if (format.bomLength === 0) return new Uint8Array(0);
  if (format.encoding === "utf-8") return new Uint8Array([0xef, 0xbb, 0xbf]);
  return format.encoding === "utf-16le"
    ? new Uint8Array([0xff, 0xfe])
    : new Uint8Array([0xfe, 0xff]);
}

/** Encodes text (without BOM) in `encoding`. */
export function encodeText(text: string, encoding: TextEncoding): Uint8Array {
  if (encoding === "utf-8") return new TextEncoder().encode(text);
  const bytes = new Uint8Array(text.length * 2);
  const view = new DataView(bytes.buffer);
  const little = encoding === "utf-16le";
  for (let i = 0; i < text.length; i++) {
    view.setUint16(i * 2, text.charCodeAt(i), little);
  }
  return bytes;
}

/** Encodes a whole file: its BOM, then the text. */
export function encodeFile(text: string, format: TextFormat): Uint8Array {
  const bom = bomBytes(format);
  const body = encodeText(text, format.encoding);
  if (bom.length === 0) return body;
  const out = new Uint8Array(bom.length + body.length);
  out.set(bom);
  out.set(body, bom.length);
  return out;
}

function imageType(head: Uint8Array, path: string): string | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47])) return "PNG";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "JPEG";
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return "GIF";
  if (
    startsWith(head, [0x52, 0x49, 0x46, 0x46]) &&
    ascii(head, 8, 12) === "WEBP"
  ) return "WebP";
  if (
    ascii(head, 4, 8) === "ftyp" &&
    /^(avif|avis|heic|heix|mif1)$/.test(ascii(head, 8, 12))
  ) {
    return ascii(head, 8, 12).startsWith("avi") ? "AVIF" : "HEIC";
  }
  const ext = extname(path).toLowerCase();
  if (IMAGE_EXTENSIONS.has(ext) && head.indexOf(0) !== -1) {
    return ext.slice(1).toUpperCase();
  }
  return undefined;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}
