import jsQR from 'jsqr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { qrCodeDataUrl } from '../../../shared/qr-code';
import { QR_CODE_SIZE } from '../../../shared/qr-code-size';

/**
 * The QR image of shared/qr-code.ts, which the embedded portal answers as `qr_code` and the
 * success screen draws when the product API's will not do (SPEC.md §2, §9): drawn to pixels by
 * librsvg (sharp) and read back by a QR reader, as a phone's camera would. Chromium reads the one
 * the success screen draws at the end of a purchase (receipt.test.ts).
 */

/** What a QR reader reads from the image at `source` (an SVG data URL), and its size. */
async function readQr(source: string) {
  const [, base64 = ''] = source.split(',');
  const { data, info } = await sharp(Buffer.from(base64, 'base64'))
    .flatten({ background: '#fff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const read = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  return { text: read?.data ?? null, width: info.width, height: info.height };
}

describe("the success screen's QR image (SPEC.md §9)", () => {
  it.each([
    ['an app link', 'https://app.example/open/abc'],
    // A larger version (up to 40) for a longer link: still one image of the same size.
    ['a long login link', `https://app.example/app/login?token=${'x'.repeat(300)}`],
  ])('%s: read back whole, from an image 256 px square', async (_, link) => {
    const source = qrCodeDataUrl(link);
    expect(source).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await readQr(source)).toEqual({
      text: link,
      width: QR_CODE_SIZE,
      height: QR_CODE_SIZE,
    });
    expect(QR_CODE_SIZE).toBe(256);
  });
});
