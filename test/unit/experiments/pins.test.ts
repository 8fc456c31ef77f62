import fc from 'fast-check';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { describe, expect, it } from 'vitest';
import {
  PINS_COOKIE,
  parsePins,
  serializePins,
} from '../../../worker/experiments/assignment/assign';

/**
 * The `gf_x` cookie that keeps an exposed visitor's variants (worker/experiments/assignment/assign.ts): what
 * it writes it reads back, through hono's own setCookie and getCookie; whatever a browser or a
 * forger sends, it reads only valid pins and never throws; and it stays small.
 */

const EXPERIMENT_ID = /^[a-z0-9][a-z0-9_-]{0,47}$/;
const VARIANT_KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)?$/;
/** RFC 6265 cookie-octet: printable US-ASCII but '"', ',', ';' and '\'. */
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

const isValidPin = (experiment: string, variant: string) =>
  EXPERIMENT_ID.test(experiment) && VARIANT_KEY.test(variant) && variant.length <= 48;

const experimentId = fc.stringMatching(EXPERIMENT_ID);
const variantKey = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,30}$/),
    fc.option(fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,16}$/)),
  )
  .map(([type, subtype]) => (subtype === null ? type : `${type}/${subtype}`))
  .filter((key) => key.length <= 48);
/** Pins, oldest first, each experiment once. */
const pinList = (maxLength: number) =>
  fc.uniqueArray(fc.tuple(experimentId, variantKey), {
    maxLength,
    selector: ([experiment]) => experiment,
  });

/** The bytes of the value as setCookie writes it. */
const wireBytes = (value: string) => encodeURIComponent(value).length;

describe('the pins cookie, written and read', () => {
  it('is `<experiment>~<variant>.` per pin, oldest first', () => {
    const pins = new Map([
      ['split', 'lp11ch8/vc'],
      ['pw-intro', 'b'],
    ]);
    expect(serializePins(pins)).toBe('split~lp11ch8/vc.pw-intro~b.');
    expect(parsePins('split~lp11ch8/vc.pw-intro~b.')).toEqual(pins);
    expect(serializePins(new Map())).toBe('');
    expect(parsePins('')).toEqual(new Map());
    expect(parsePins(undefined)).toEqual(new Map());
  });

  it('reads back what it wrote, in order, whenever it fits', () => {
    fc.assert(
      fc.property(pinList(12), (list) => {
        const pins = new Map(list);
        const value = serializePins(pins);
        // 12 pins of at most 100 bytes each fit in the cap.
        expect([...parsePins(value)]).toEqual([...pins]);
      }),
      { seed: 39, numRuns: 500 },
    );
  });

  it('round-trips through hono’s setCookie and getCookie, in cookie-safe characters', async () => {
    await fc.assert(
      fc.asyncProperty(pinList(40), async (list) => {
        const app = new Hono();
        app.get('/write', (c) => {
          setCookie(c, PINS_COOKIE, serializePins(new Map(list)), { path: '/' });
          return c.body(null, 204);
        });
        app.get('/read', (c) => c.json([...parsePins(getCookie(c, PINS_COOKIE))]));
        const written = (await app.request('/write')).headers.get('set-cookie')!;
        const pair = written.split(';')[0]!;
        const value = pair.slice(`${PINS_COOKIE}=`.length);
        expect(value).toMatch(COOKIE_OCTETS);
        expect(value.length).toBeLessThan(1500);
        const response = await app.request('/read', { headers: { cookie: pair } });
        const read = (await response.json()) as [string, string][];
        expect(read).toEqual([...parsePins(serializePins(new Map(list)))]);
        expect(read).toEqual(list.slice(list.length - read.length));
      }),
      { seed: 39, numRuns: 150 },
    );
  });

  it('leaves out a pin it could not read back', () => {
    const pins = new Map([
      ['split', 'default'],
      ['Bad', 'b'],
      ['ok', 'Not-lower'],
      ['fine', 'a'],
    ]);
    expect(parsePins(serializePins(pins))).toEqual(
      new Map([
        ['split', 'default'],
        ['fine', 'a'],
      ]),
    );
  });
});

describe('the pins cookie’s size', () => {
  it('keeps at most 30 pins under 1,500 bytes as sent, dropping the oldest first', () => {
    const longId = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{20,47}$/);
    const longKey = fc
      .tuple(
        fc.stringMatching(/^[a-z0-9][a-z0-9_-]{10,25}$/),
        fc.stringMatching(/^[a-z0-9][a-z0-9_-]{5,20}$/),
      )
      .map(([type, subtype]) => `${type}/${subtype}`);
    const anyPins = fc.oneof(
      pinList(60),
      fc.uniqueArray(fc.tuple(longId, longKey), { maxLength: 40, selector: ([id]) => id }),
    );
    fc.assert(
      fc.property(anyPins, (list) => {
        const value = serializePins(new Map(list));
        const kept = [...parsePins(value)];
        expect(kept.length).toBeLessThanOrEqual(30);
        expect(wireBytes(value)).toBeLessThan(1500);
        // The newest pins, as many as fit: the next older one would have broken a cap.
        expect(kept).toEqual(list.slice(list.length - kept.length));
        if (kept.length < list.length) {
          const [experiment, variant] = list[list.length - kept.length - 1]!;
          const withOlder = wireBytes(`${experiment}~${variant}.${value}`);
          expect(kept.length === 30 || withOlder >= 1500).toBe(true);
        }
      }),
      { seed: 39, numRuns: 300 },
    );
  });

  it('counts a / as the three bytes setCookie sends', () => {
    // 30 pins of 48 characters: 1,440 written out, but 1,500 as sent with each / as %2F.
    const pins = new Map(
      Array.from({ length: 30 }, (_, i) => [
        `experiment-${String(i).padStart(2, '0')}-abcdefghijklmnopqrstuvwx`,
        'type/sub',
      ]),
    );
    expect([...pins].map(([id, key]) => `${id}~${key}.`).join('')).toHaveLength(1440);
    const value = serializePins(pins);
    expect(wireBytes(value)).toBe(1450);
    expect([...parsePins(value)]).toEqual([...pins].slice(1));
  });
});

describe('a pins cookie from the outside', () => {
  it('never throws on anything, and yields only valid pins that stand whole in it', () => {
    const cookieish = fc.string({
      unit: fc.constantFrom(...'ab1-_~./X %é'.split('')),
      maxLength: 200,
    });
    // Any UTF-16 code units, lone surrogates included (fast-check's 'binary' unit is far slower).
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const anything = fc.oneof(fc.string({ unit: codeUnit, maxLength: 300 }), cookieish);
    fc.assert(
      fc.property(anything, (value) => {
        const pins = parsePins(value);
        for (const [experiment, variant] of pins) {
          expect(isValidPin(experiment, variant)).toBe(true);
          const entry = `${experiment}~${variant}.`;
          expect(value.startsWith(entry) || value.includes(`.${entry}`)).toBe(true);
        }
      }),
      { seed: 39, numRuns: 2000 },
    );
  });

  it('yields exactly the valid entries of a forged mix, the first of an experiment named twice', () => {
    const forgedEntry = fc.oneof(
      // Starts with what no experiment id starts with.
      fc
        .tuple(fc.constantFrom('A', '-', '_', '~', ' ', '%'), fc.string({ maxLength: 30 }))
        .map(([first, rest]) => `${first}${rest.replaceAll('.', '')}.`),
      // A valid id with a variant key that is not one.
      fc
        .tuple(experimentId, fc.constantFrom('B', 'a/b/c', '/a', 'a/', 'x'.repeat(49), 'a~b', ''))
        .map(([id, variant]) => `${id}~${variant}.`),
      // An id too long, or no '~' at all.
      fc.constant(`${'e'.repeat(49)}~b.`),
      experimentId.map((id) => `${id}.`),
    );
    const token = fc.oneof(
      fc.tuple(experimentId, variantKey).map(([id, variant]) => ({ pin: [id, variant] as const })),
      forgedEntry.map((forged) => ({ forged })),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (tokens) => {
        const value = tokens
          .map((t) => ('pin' in t ? `${t.pin[0]}~${t.pin[1]}.` : t.forged))
          .join('');
        const expected = new Map<string, string>();
        for (const t of tokens) {
          if ('pin' in t && !expected.has(t.pin[0])) expected.set(t.pin[0], t.pin[1]);
        }
        expect([...parsePins(value)]).toEqual([...expected]);
      }),
      { seed: 39, numRuns: 1000 },
    );
  });

  it('cut short anywhere, yields the pins before the cut and never a shortened variant', () => {
    fc.assert(
      fc.property(
        pinList(12).filter((list) => list.length > 0),
        fc.nat(),
        (list, at) => {
          const value = serializePins(new Map(list));
          const cut = value.slice(0, at % (value.length + 1));
          const whole = cut.split('.').length - 1;
          expect([...parsePins(cut)]).toEqual(list.slice(0, whole));
        },
      ),
      { seed: 39, numRuns: 1000 },
    );
    expect(parsePins('split~lp11ch8/vc.pw-intro~b')).toEqual(new Map([['split', 'lp11ch8/vc']]));
  });

  it('reads a variant key of 48 characters, not of 49', () => {
    expect(parsePins(`e~${'v'.repeat(48)}.`).get('e')).toBe('v'.repeat(48));
    expect(parsePins(`e~${'v'.repeat(49)}.`).size).toBe(0);
    expect(parsePins(`${'e'.repeat(48)}~v.`).size).toBe(1);
  });

  it('reads no further than 4,096 characters, so a huge forged one costs little', () => {
    const value = `${'a~b.'.repeat(1024)}z~y.`;
    expect(value.length).toBe(4100);
    expect(parsePins(value)).toEqual(new Map([['a', 'b']]));
    // 2000 pins, 14 890 characters: the 600 wholly in the first 4,096 are read, the rest not.
    const many = Array.from({ length: 2000 }, (_, i) => `e${i}~v.`).join('');
    const read = parsePins(many);
    expect(read.size).toBe(600);
    expect(read.has('e0')).toBe(true);
    expect(read.has('e1999')).toBe(false);
  });
});
