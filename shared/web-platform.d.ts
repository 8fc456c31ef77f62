/**
 * The web-platform globals code in shared/ may use: those that browsers, workerd and Node 20 all
 * provide alike (WinterCG's Minimum Common API). shared/ is type-checked with neither the DOM lib
 * nor the Workers or Node types, so that `window`, `caches.default` or `process` cannot land in
 * code every runtime loads; these few are declared by hand, only as far as shared/ uses them.
 * Callers see their own runtime's full declarations (the d.ts files of this project do not
 * include this one).
 */

declare class URL {
  static canParse(url: string, base?: string): boolean;
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array): string;
}

declare function atob(data: string): string;

declare function btoa(data: string): string;

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare function setTimeout(handler: () => void, timeout?: number): unknown;

declare const console: {
  log(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
};

interface AbortSignal {
  readonly aborted: boolean;
}

interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

interface Response {
  readonly ok: boolean;
  readonly status: number;
  text(): Promise<string>;
}

declare function fetch(input: string, init?: RequestInit): Promise<Response>;

/** A key WebCrypto made; opaque here. */
declare interface CryptoKey {
  readonly type: string;
}

/**
 * WebCrypto's HMAC, as far as shared/api/hook-signature.ts signs and verifies with it, and its
 * SHA-256 digest (shared/hex.ts sha256Hex).
 */
declare const crypto: {
  subtle: {
    digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
    importKey(
      format: 'raw',
      keyData: Uint8Array,
      algorithm: { name: string; hash: string },
      extractable: boolean,
      usages: ('sign' | 'verify')[],
    ): Promise<CryptoKey>;
    sign(
      algorithm: { name: string; hash: string },
      key: CryptoKey,
      data: Uint8Array,
    ): Promise<ArrayBuffer>;
    verify(
      algorithm: { name: string; hash: string },
      key: CryptoKey,
      signature: Uint8Array,
      data: Uint8Array,
    ): Promise<boolean>;
  };
};
