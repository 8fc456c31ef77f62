import type { PictureRecord } from '../../shared/console-api/pictures';

/**
 * What an uploaded file is, read from its bytes alone: the name and the Content-Type are the
 * uploader's to choose, the bytes are what a browser will decode. Each format's signature, then
 * its width and height from its header (the PNG IHDR, the GIF screen descriptor, the JPEG start
 * of frame, the WebP VP8/VP8L/VP8X header, the AVIF `ispe` property), bounds-checked at every
 * read, so a truncated or damaged file is refused, never read past its end.
 */

export type PictureType = PictureRecord['type'];

export type Sniffed =
  | { ok: true; type: PictureType; width: number; height: number }
  | { ok: false; reason: 'svg' | 'unknown' | 'malformed' };

const MALFORMED = { ok: false, reason: 'malformed' } as const;

/** Thrown by a read past the end: the file is shorter than its header says. */
class Truncated extends Error {}

class Bytes {
  constructor(readonly data: Uint8Array) {}
  u8(at: number): number {
    const value = this.data[at];
    if (value === undefined || at < 0) throw new Truncated();
    return value;
  }
  be16(at: number): number {
    return (this.u8(at) << 8) | this.u8(at + 1);
  }
  le16(at: number): number {
    return this.u8(at) | (this.u8(at + 1) << 8);
  }
  le24(at: number): number {
    return this.u8(at) | (this.u8(at + 1) << 8) | (this.u8(at + 2) << 16);
  }
  be32(at: number): number {
    return this.be16(at) * 0x10000 + this.be16(at + 2);
  }
  ascii(at: number, length: number): string {
    let text = '';
    for (let i = 0; i < length; i++) text += String.fromCharCode(this.u8(at + i));
    return text;
  }
  startsWith(signature: readonly number[], at = 0): boolean {
    return signature.every((byte, i) => this.data[at + i] === byte);
  }
}

type Reader = (bytes: Bytes) => { width: number; height: number } | null;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const readPng: Reader = (b) =>
  b.ascii(12, 4) === 'IHDR' ? { width: b.be32(16), height: b.be32(20) } : null;

const readGif: Reader = (b) => ({ width: b.le16(6), height: b.le16(8) });

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the size. */
const JPEG_FRAMES = new Set([
  0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf,
]);

/** The JPEG's segments from after its SOI, to the first frame header; a scan before it is damage. */
const readJpeg: Reader = (b) => {
  let at = 2;
  for (;;) {
    if (b.u8(at) !== 0xff) return null;
    let marker = b.u8(at + 1);
    // Fill bytes: any number of 0xFF before a marker.
    while (marker === 0xff) marker = b.u8(++at + 1);
    if (JPEG_FRAMES.has(marker)) return { width: b.be16(at + 7), height: b.be16(at + 5) };
    if (marker === 0xda || marker === 0xd9) return null;
    // Markers without a length: restarts, TEM.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = b.be16(at + 2);
    if (length < 2) return null;
    at += 2 + length;
  }
};

const readWebp: Reader = (b) => {
  const chunk = b.ascii(12, 4);
  if (chunk === 'VP8 ') {
    // A key frame: its start code, then 14-bit width and height.
    if (!b.startsWith([0x9d, 0x01, 0x2a], 23)) return null;
    return { width: b.le16(26) & 0x3fff, height: b.le16(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b.u8(20) !== 0x2f) return null;
    const bits = b.u8(21) | (b.u8(22) << 8) | (b.u8(23) << 16) | (b.u8(24) << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.le24(24) + 1, height: b.le24(27) + 1 };
  return null;
};

interface Box {
  type: string;
  /** Where its content starts and where the box ends. */
  body: number;
  end: number;
}

/** The ISO-BMFF boxes between `from` and `to`, each within its parent. */
function boxes(b: Bytes, from: number, to: number): Box[] {
  const found: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = b.be32(at);
    const type = b.ascii(at + 4, 4);
    let body = at + 8;
    if (size === 1) {
      // A 64-bit size: more than any upload allows when its high half is set.
      if (b.be32(at + 8) !== 0) throw new Truncated();
      size = b.be32(at + 12);
      body = at + 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < body - at || at + size > to) throw new Truncated();
    found.push({ type, body, end: at + size });
    at += size;
  }
  return found;
}

/** AVIF brands, as the file type box lists them (still image, image sequence). */
const AVIF_BRANDS = new Set(['avif', 'avis']);

function isAvif(b: Bytes): boolean {
  if (b.data.length < 12 || b.ascii(4, 4) !== 'ftyp') return false;
  const size = Math.min(b.be32(0), b.data.length);
  for (let at = 8; at + 4 <= size; at += 4) {
    if (at === 12) continue; // the minor version
    if (AVIF_BRANDS.has(b.ascii(at, 4))) return true;
  }
  return false;
}

/** meta → iprp → ipco → ispe: the largest image spatial extent (a grid's whole, not a tile). */
const readAvif: Reader = (b) => {
  const child = (parent: Box | undefined, type: string, skip = 0) =>
    parent && boxes(b, parent.body + skip, parent.end).find((box) => box.type === type);
  const meta = boxes(b, 0, b.data.length).find((box) => box.type === 'meta');
  const ipco = child(child(meta, 'iprp', 4), 'ipco');
  if (!ipco) return null;
  let best: { width: number; height: number } | null = null;
  for (const box of boxes(b, ipco.body, ipco.end)) {
    if (box.type !== 'ispe') continue;
    const size = { width: b.be32(box.body + 4), height: b.be32(box.body + 8) };
    if (!best || size.width * size.height > best.width * best.height) best = size;
  }
  return best;
};

/** Whether text looks like SVG: markup whose first element, after any prologue, is `<svg`. */
function isSvg(data: Uint8Array): boolean {
  const head = new TextDecoder().decode(data.subarray(0, 4096));
  const text = head.replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('<') && /<svg[\s>/]/i.test(text);
}

function typeOf(b: Bytes): { type: PictureType; read: Reader } | null {
  if (b.startsWith(PNG)) return { type: 'png', read: readPng };
  if (b.startsWith([0xff, 0xd8, 0xff])) return { type: 'jpeg', read: readJpeg };
  if (b.startsWith([0x47, 0x49, 0x46, 0x38]) && [0x37, 0x39].includes(b.data[4] ?? 0)) {
    return b.data[5] === 0x61 ? { type: 'gif', read: readGif } : null;
  }
  if (b.data.length >= 12 && b.ascii(0, 4) === 'RIFF' && b.ascii(8, 4) === 'WEBP') {
    return { type: 'webp', read: readWebp };
  }
  if (isAvif(b)) return { type: 'avif', read: readAvif };
  return null;
}

/** What `data` is and how large, or why it is no picture we take. Never throws. */
export function sniffPicture(data: Uint8Array): Sniffed {
  const bytes = new Bytes(data);
  let kind: ReturnType<typeof typeOf>;
  try {
    kind = typeOf(bytes);
  } catch {
    return MALFORMED;
  }
  if (!kind) return { ok: false, reason: isSvg(data) ? 'svg' : 'unknown' };
  try {
    const size = kind.read(bytes);
    if (!size || size.width === 0 || size.height === 0) return MALFORMED;
    return { ok: true, type: kind.type, ...size };
  } catch (error) {
    if (error instanceof Truncated) return MALFORMED;
    throw error;
  }
}
