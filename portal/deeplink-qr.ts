import { create } from 'qrcode/lib/core/qrcode';
import { render } from 'qrcode/lib/renderer/svg-tag';

/**
 * The short deeplink of GET /users/me/deeplink-qr-code (SPEC.md §7) and its QR code: the link
 * opens the app signed in, through the one-time login token it carries.
 */
export function deeplinkUrl(base: string, token: string): string {
  const url = new URL(base);
  url.searchParams.set('token', token);
  return url.href;
}

/**
 * The QR code of `text` as an SVG data URL, usable as an <img src> (the contract's `qr_code`).
 * Medium error correction survives a phone camera at an angle; the quiet zone of 4 modules is
 * what the QR standard asks for.
 */
export function qrCodeDataUrl(text: string): string {
  const svg = render(create(text, { errorCorrectionLevel: 'M' }), { margin: 4 });
  return `data:image/svg+xml;base64,${base64OfUtf8(svg)}`;
}

function base64OfUtf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
