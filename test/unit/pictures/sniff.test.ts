import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sniffPicture } from '../../../worker/pictures/sniff';
import { pngOf } from '../../fixtures/png';

/** A real file of `format`, encoded by sharp (libvips) from a small PNG. */
async function encoded(
  format: 'jpeg' | 'webp' | 'avif' | 'gif',
  width: number,
  height: number,
  options: Record<string, unknown> = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const png = await pngOf(width, height);
  return new Uint8Array(await sharp(png).toFormat(format, options).toBuffer());
}

describe('sniffPicture reads the type and size from the bytes', () => {
  it('of a PNG', async () => {
    expect(sniffPicture(await pngOf(37, 21))).toEqual({
      ok: true,
      type: 'png',
      width: 37,
      height: 21,
    });
  });

  it.each([
    ['jpeg', {}],
    ['jpeg', { progressive: true }],
    ['webp', {}],
    ['webp', { lossless: true }],
    ['avif', {}],
    ['gif', {}],
  ] as const)('of a %s %j', async (format, options) => {
    const file = await encoded(format, 45, 30, options);
    expect(sniffPicture(file)).toEqual({ ok: true, type: format, width: 45, height: 30 });
  });

  it('of a WebP with alpha (its extended VP8X header)', async () => {
    const png = await sharp({
      create: { width: 50, height: 20, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
    })
      .webp()
      .toBuffer();
    expect(sniffPicture(new Uint8Array(png))).toMatchObject({
      type: 'webp',
      width: 50,
      height: 20,
    });
  });

  it('of a PNG named .jpg and sent as image/jpeg: the bytes decide, and they say PNG', async () => {
    const file = new File([await pngOf(20, 20)], 'photo.jpg', { type: 'image/jpeg' });
    const sniffed = sniffPicture(new Uint8Array(await file.arrayBuffer()));
    expect(sniffed).toMatchObject({ ok: true, type: 'png' });
  });

  it('of a JPEG whose frame header follows padding and EXIF-sized segments', async () => {
    const jpeg = await encoded('jpeg', 64, 48);
    // An APP1 segment of 1000 bytes and fill bytes before the next marker, as cameras write.
    const app1 = new Uint8Array(4 + 998);
    app1.set([0xff, 0xe1, 0x03, 0xe8]);
    const padded = new Uint8Array([...jpeg.subarray(0, 2), ...app1, 0xff, ...jpeg.subarray(2)]);
    expect(sniffPicture(padded)).toMatchObject({ type: 'jpeg', width: 64, height: 48 });
  });
});

describe('sniffPicture refuses', () => {
  it('an SVG, even named .png, with script in it', () => {
    const svg = new TextEncoder().encode(
      '\uFEFF<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect(sniffPicture(svg)).toEqual({ ok: false, reason: 'svg' });
  });

  it('HTML, text and an empty file as unknown', () => {
    for (const text of ['<html><body>hi</body></html>', 'just text', '']) {
      expect(sniffPicture(new TextEncoder().encode(text))).toEqual({
        ok: false,
        reason: 'unknown',
      });
    }
  });

  it('every cut inside a header as malformed, never reading past the end', async () => {
    // Each file with the length of the header its size is read from.
    const files: [Uint8Array, number][] = [
      [await pngOf(20, 20), 24],
      [await encoded('jpeg', 20, 20), 24],
      [await encoded('webp', 20, 20), 30],
      [await encoded('avif', 20, 20), 24],
      [await encoded('gif', 20, 20), 10],
    ];
    for (const [file, header] of files) {
      expect(sniffPicture(file).ok).toBe(true);
      for (let cut = 12; cut < header; cut++) {
        expect(sniffPicture(file.subarray(0, cut))).toEqual({ ok: false, reason: 'malformed' });
      }
    }
  });

  it('a PNG whose first chunk is not its header, and one of zero width', async () => {
    const png = await pngOf(20, 20);
    const renamed = png.slice();
    renamed.set([0x49, 0x44, 0x41, 0x54], 12); // 'IDAT' where 'IHDR' belongs
    expect(sniffPicture(renamed)).toEqual({ ok: false, reason: 'malformed' });
    const zero = png.slice();
    zero.set([0, 0, 0, 0], 16);
    expect(sniffPicture(zero)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('a JPEG whose scan comes before any frame header, or whose segment length is < 2', () => {
    const scanFirst = Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0]);
    expect(sniffPicture(scanFirst)).toEqual({ ok: false, reason: 'malformed' });
    const badLength = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0, 0, 0, 0]);
    expect(sniffPicture(badLength)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('an AVIF whose boxes claim more bytes than the file has', async () => {
    const avif = await encoded('avif', 20, 20);
    expect(sniffPicture(avif.subarray(0, Math.floor(avif.length / 2)))).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});

describe('sniffPicture on random bytes', () => {
  it('never throws, whatever the bytes, and never reports a size of 0', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        const sniffed = sniffPicture(bytes);
        if (sniffed.ok) expect(sniffed.width * sniffed.height).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on a real header followed by random bytes', async () => {
    const heads = [
      (await pngOf(8, 8)).subarray(0, 12),
      Uint8Array.from([0xff, 0xd8, 0xff]),
      new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8'),
      (await encoded('avif', 20, 20)).subarray(0, 32),
      new TextEncoder().encode('GIF89a'),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...heads), fc.uint8Array({ maxLength: 200 }), (head, tail) => {
        const sniffed = sniffPicture(new Uint8Array([...head, ...tail]));
        expect(typeof sniffed.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });
});
