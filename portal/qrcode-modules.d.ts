/**
 * Types of the two files of the `qrcode` package that portal/deeplink-qr.ts imports directly
 * (the package's main entry also loads its PNG renderer, pngjs and `fs`, which a worker needs
 * none of). The shapes are those of @types/qrcode's `create` and its SVG options.
 */
declare module 'qrcode/lib/core/qrcode' {
  import type { QRCode, QRCodeOptions } from 'qrcode';
  export function create(text: string, options?: QRCodeOptions): QRCode;
}

declare module 'qrcode/lib/renderer/svg-tag' {
  import type { QRCode, QRCodeRenderersOptions } from 'qrcode';
  export function render(qrData: QRCode, options?: QRCodeRenderersOptions): string;
}
