import { sha256Hex } from '../../shared/hex';

/**
 * A match key as the ad networks want it hashed: SHA-256 (hex, lower case) of the value trimmed
 * and lower-cased. Meta's customer information parameters ("em": trim, lower-case, SHA-256) and
 * TikTok's Events API ("email", "external_id": SHA-256 of the normalised value) agree on it.
 */
export async function hashedMatchKey(value: string): Promise<string> {
  return sha256Hex(value.trim().toLowerCase());
}
