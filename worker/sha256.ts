import { hex } from '../shared/hex';

/** The first `chars` hex digits of the SHA-256 of `text`: a short, stable, one-way stand-in. */
export async function sha256Hex(text: string, chars = 32): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return hex(new Uint8Array(digest)).slice(0, chars);
}
