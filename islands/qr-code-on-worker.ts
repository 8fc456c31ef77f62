/**
 * What `#qr-code` (package.json "imports") is on workerd: the success screen draws a QR code only
 * in the browser, so the worker, which renders the island too, carries none of the QR library
 * (test/unit/production-bundle.test.ts; it would be 25 KB of the worker's size budget).
 */
export function qrCodeDataUrl(): never {
  throw new Error('QR codes are drawn in the browser, never on the worker');
}
