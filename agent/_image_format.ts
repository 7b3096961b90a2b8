// Recognizes PNG, JPEG, GIF and WebP by their bytes (never the extension) and
// reads the pixel size from the header, so the agent knows whether an image can
// be sent as it is without decoding it.

/** What an image's header says. */
export interface ImageInfo {
  mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  /** Short name for messages, e.g. `"PNG"`. */
  format: "PNG" | "JPEG" | "GIF" | "WebP";
  /** Pixels; 0 when the header does not say (a truncated JPEG). */
  width: number;
  height: number;
}

/** Reads the format and size of an image, or `undefined` when it is none of the four. */
export function sniffImage(bytes: Uint8Array): ImageInfo | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return png(bytes);
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes);
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") {
    return gif(bytes);
  }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") {
    return webp(bytes);
  }
  return undefined;
}

function png(bytes: Uint8Array): ImageInfo {
  const view = viewOf(bytes);
  const size = bytes.length >= 24
    ? [view.getUint32(16), view.getUint32(20)]
    : [0, 0];
  return {
    mediaType: "image/png",
    format: "PNG",
    width: size[0],
    height: size[1],
  };
}

function gif(bytes: Uint8Array): ImageInfo {
  const view = viewOf(bytes);
  const size = bytes.length >= 10
    ? [view.getUint16(6, true), view.getUint16(8, true)]
    : [0, 0];
  return {
    mediaType: "image/gif",
    format: "GIF",
    width: size[0],
    height: size[1],
  };
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpeg(bytes: Uint8Array): ImageInfo {
  const info: ImageInfo = {
    mediaType: "image/jpeg",
    format: "JPEG",
    width: 0,
    height: 0,
  };
  const view = viewOf(bytes);
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return info;
    const marker = bytes[offset + 1];
    if (marker === 0xff) { // fill byte
      offset++;
      continue;
    }
    const length = view.getUint16(offset + 2);
    if (isStartOfFrame(marker)) {
      info.height = view.getUint16(offset + 5);
      info.width = view.getUint16(offset + 7);
      return info;
    }
    offset += 2 + length;
  }
  return info;
}

function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 &&
    marker !== 0xc8 &&
    marker !== 0xcc;
}

/** WebP keeps its size in one of three chunk layouts. */
function webp(bytes: Uint8Array): ImageInfo {
  const info: ImageInfo = {
    mediaType: "image/webp",
    format: "WebP",
    width: 0,
    height: 0,
  };
  const view = viewOf(bytes);
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8 " && bytes.length >= 30) {
    info.width = view.getUint16(26, true) & 0x3fff;
    info.height = view.getUint16(28, true) & 0x3fff;
  } else if (chunk === "VP8L" && bytes.length >= 25) {
    const bits = view.getUint32(21, true);
    info.width = (bits & 0x3fff) + 1;
    info.height = ((bits >> 14) & 0x3fff) + 1;
  } else if (chunk === "VP8X" && bytes.length >= 30) {
    info.width = (bytes[24] | bytes[25] << 8 | bytes[26] << 16) + 1;
    info.height = (bytes[27] | bytes[28] << 8 | bytes[29] << 16) + 1;
  }
  return info;
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}
