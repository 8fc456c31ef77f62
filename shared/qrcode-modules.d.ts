/**
 * Types of the two files of the `qrcode` package that shared/qr-code.ts imports directly (the
 * package's main entry also loads its PNG renderer, pngjs and `fs`, which neither a worker nor a
 * page needs). Declared by hand, as far as we use them: @types/qrcode references Node's types,
 * which would reach every runtime's project through shared/.
 */
declare module 'qrcode/lib/core/qrcode' {
  /** An encoded symbol; only the renderer reads it. */
  export interface QRCodeSymbol {
    readonly version: number;
  }
  export function create(
    text: string,
    options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H'; version?: number },
  ): QRCodeSymbol;
}

declare module 'qrcode/lib/renderer/svg-tag' {
  import type { QRCodeSymbol } from 'qrcode/lib/core/qrcode';
  export function render(
    symbol: QRCodeSymbol,
    options?: { margin?: number; width?: number; color?: { dark?: string; light?: string } },
  ): string;
}
