import type { Random } from './simulation';

const HEX_CODES = [...'0123456789abcdef'].map((digit) => digit.charCodeAt(0));
const HYPHEN = '-'.charCodeAt(0);

/**
 * Visitor ids shaped like the worker's (crypto.randomUUID, version 4: 122 random bits, a '4' and
 * a variant digit 8–b in fixed places) but drawn from a seeded generator, so a test over them
 * gives the same numbers on every run. Each is made in one piece from its character codes: a
 * simulation makes millions, and a string grown a character at a time is a chain of 36 parts.
 */
export function seededVisitorIds(random: Random): () => string {
  const codes = new Array<number>(36);
  return () => {
    let at = 0;
    let word = 0;
    for (let digit = 0; digit < 32; digit++) {
      if (digit % 8 === 0) word = (random() * 2 ** 32) >>> 0;
      let nibble = word >>> 28;
      word = (word << 4) >>> 0;
      if (digit === 12) nibble = 4;
      else if (digit === 16) nibble = 0x8 | (nibble & 0x3);
      if (digit === 8 || digit === 12 || digit === 16 || digit === 20) codes[at++] = HYPHEN;
      codes[at++] = HEX_CODES[nibble]!;
    }
    return String.fromCharCode(...codes);
  };
}
