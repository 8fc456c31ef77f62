import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REVIEW_AVATARS } from '../../../screens/kit/review-portraits';

/**
 * The reviews' portraits are cached for a year (public/_headers), so a portrait that changes must
 * change its name: each name carries the first 8 hex digits of its file's SHA-256.
 */
const PUBLIC = join(process.cwd(), 'public');

describe('the review portraits', () => {
  it.each(REVIEW_AVATARS.map((path) => [path]))('%s is named for its content', (path) => {
    const file = readFileSync(join(PUBLIC, path));
    const hash = /-([0-9a-f]{8})\.svg$/.exec(path)?.[1];
    expect(hash).toBe(createHash('sha256').update(file).digest('hex').slice(0, 8));
  });

  it('are the only files in their folder, which is cached immutably', () => {
    const names = readdirSync(join(PUBLIC, 'img/reviews')).map((name) => `/img/reviews/${name}`);
    expect(names.sort()).toEqual([...REVIEW_AVATARS].sort());
    const headers = readFileSync(join(PUBLIC, '_headers'), 'utf8');
    expect(headers).toMatch(
      /^\/img\/reviews\/\*\n {2}Cache-Control: public, max-age=31536000, immutable$/m,
    );
  });

  it('are drawn people with a name, not a letter or an icon, and load nothing else', () => {
    for (const path of REVIEW_AVATARS) {
      const svg = readFileSync(join(PUBLIC, path), 'utf8');
      expect(svg).toMatch(/<title>[A-Z][a-z]+<\/title>/);
      // A face: two eyes and a mouth on a skin-toned oval.
      expect(svg.match(/<ellipse cx="(41|54)\.5" cy="45\.5"/g)).toHaveLength(2);
      expect(svg).not.toMatch(/<image|href=|url\(http|<script/);
      expect(svg.length).toBeLessThan(2048);
    }
  });
});
