import { create } from 'qrcode/lib/core/qrcode';
import { render } from 'qrcode/lib/renderer/svg-tag';
import { QR_CODE_SIZE } from './qr-code-size';

/**
 * The QR code of `text` as an SVG data URL, usable as an <img src>: the embedded portal's
 * `qr_code`, and the success screen's own when the product API gave none it could use. The
 * library picks the smallest of versions 1 to 40 that holds the text (SPEC.md §9). Medium error
 * correction survives a phone camera at an angle; the quiet zone of 4 modules is what the QR
 * standard asks for.
 */
export function qrCodeDataUrl(text: string): string {
  const svg = render(create(text, { errorCorrectionLevel: 'M' }), {
    margin: 4,
    width: QR_CODE_SIZE,
  });
  return `data:image/svg+xml;base64,${base64OfUtf8(svg)}`;
}

function base64OfUtf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
