import { describe, expect, it } from 'vitest';
import { isWrite, sqlVerb } from '../../../scripts/bench/data/counting';
import {
  judge,
  keptDays,
  type LimitLine,
  mixed,
  monthsToFull,
  read,
  SECONDS_PER_MONTH,
  visitorsPerSecond,
} from '../../../scripts/bench/data/extrapolate';
import { type KeyClassLoad, limitLines } from '../../../scripts/bench/data/limit-lines';
import {
  busiestShareAtScale,
  groupByKeyClass,
  keyClass,
  keyKind,
} from '../../../scripts/bench/data/object-keys';

const MIX = { payingShare: 0.05 };
const TEN_M = { visitorsPerMonth: 10_000_000, peakFactor: 10 };

const rateLine = (perVisitor: { lookup: number; paying: number }, limit: number): LimitLine => ({
  store: 'D1 DB',
  what: 'statements',
  limit,
  unit: '/s',
  demand: { kind: 'rate', perVisitor, share: 1 },
});

describe('the traffic a month of visitors makes', () => {
  it('spreads a month over 30 days and multiplies the peak hour', () => {
    const rates = visitorsPerSecond(TEN_M);
    expect(rates.average).toBeCloseTo(10_000_000 / SECONDS_PER_MONTH, 9);
    expect(rates.average).toBeCloseTo(3.858, 3);
    expect(rates.peak).toBeCloseTo(38.58, 2);
  });

  it('weighs each kind of visitor by its share of the mix', () => {
    expect(mixed({ lookup: 10, paying: 30 }, MIX)).toBeCloseTo(11, 9);
    expect(mixed({ lookup: 10, paying: 30 }, { payingShare: 0 })).toBe(10);
  });
});

describe('reading a line at a traffic', () => {
  it('turns statements per visitor into a peak rate and its headroom', () => {
    const reading = read(rateLine({ lookup: 10, paying: 30 }, 500), TEN_M, MIX, 365);
    // 11 statements per visitor of the mix, 38.58 visitors a second at the peak.
    expect(reading.peak).toBeCloseTo(11 * 38.58, 0);
    expect(reading.average).toBeCloseTo(11 * 3.858, 1);
    expect(reading.headroom).toBeCloseTo(500 / (11 * 38.58), 2);
  });

  it('takes only the busiest object share of a rate', () => {
    const line: LimitLine = {
      ...rateLine({ lookup: 4, paying: 4 }, 1000),
      demand: { kind: 'rate', perVisitor: { lookup: 4, paying: 4 }, share: 0.25 },
    };
    expect(read(line, TEN_M, MIX, 365).peak).toBeCloseTo(38.58, 1);
  });

  it('holds a fixed rate and a size as they are, whatever the traffic', () => {
    const fixed: LimitLine = { ...rateLine({ lookup: 0, paying: 0 }, 1000) };
    fixed.demand = { kind: 'fixed-rate', perSecond: 4 };
    const at100 = read(fixed, { visitorsPerMonth: 100e6, peakFactor: 10 }, MIX, 365);
    expect(at100.peak).toBe(4);
    expect(at100.headroom).toBe(250);
  });

  it('keeps a windowed table for its window and a kept-for-good one for the horizon', () => {
    expect(keptDays(8, 365)).toBe(8);
    expect(keptDays(null, 365)).toBe(365);
    expect(keptDays(400, 365)).toBe(365);
    const storage: LimitLine = {
      store: 'D1 DB',
      what: 'size',
      limit: 10e9,
      unit: 'B',
      demand: {
        kind: 'storage',
        parts: [
          { label: 'seen', bytesPerVisitor: { lookup: 100, paying: 100 }, retentionDays: 8 },
          {
            label: 'events',
            bytesPerVisitor: { lookup: 1000, paying: 1000 },
            retentionDays: null,
            fixedBytes: 50_000,
          },
        ],
      },
    };
    const daily = 10_000_000 / 30;
    const expected = 50_000 + 100 * daily * 8 + 1000 * daily * 365;
    expect(read(storage, TEN_M, MIX, 365).peak).toBeCloseTo(expected, -3);
    // Only the kept-for-good part grows: the windowed one is full after 8 days.
    const months = monthsToFull(storage, TEN_M, MIX);
    expect(months).toBeCloseTo((10e9 - 50_000 - 100 * daily * 8) / (1000 * daily) / 30, 6);
  });

  it('says a storage line with only windowed parts never fills', () => {
    const line: LimitLine = {
      store: 'DO',
      what: 'size',
      limit: 10e9,
      unit: 'B',
      demand: {
        kind: 'storage',
        parts: [{ label: 'x', bytesPerVisitor: { lookup: 1, paying: 1 }, retentionDays: 1 }],
      },
    };
    expect(monthsToFull(line, TEN_M, MIX)).toBeNull();
  });
});

describe('judging lines against the headroom goals', () => {
  it('passes 5x at 10 M and fails 1.5x at 100 M for a line between the two', () => {
    // 1 statement a visitor: 38.6/s at 10 M (12.9x), 386/s at 100 M (1.30x).
    const [verdict] = judge([rateLine({ lookup: 1, paying: 1 }, 500)], {
      peakFactor: 10,
      mix: MIX,
      horizonDays: 365,
    });
    expect(verdict?.readings.map((reading) => reading.met)).toEqual([true, false]);
    expect(verdict?.readings[1]?.reading.headroom).toBeCloseTo(1.296, 2);
  });

  it('counts nothing demanded as endless headroom', () => {
    const [verdict] = judge([rateLine({ lookup: 0, paying: 0 }, 500)], {
      peakFactor: 10,
      mix: MIX,
      horizonDays: 365,
    });
    expect(verdict?.readings.every((reading) => reading.met)).toBe(true);
    expect(verdict?.readings[0]?.reading.headroom).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('Durable Objects by what they are keyed on', () => {
  it('names the kind of key and hides the key itself', () => {
    expect(keyClass('lookup_per_visitor:6f1c2a3b-1d2e-4f50-8a9b-0c1d2e3f4a5b')).toBe(
      'lookup_per_visitor:<uuid>',
    );
    expect(keyClass('collector_batches_per_ip:198.51.100.7')).toBe(
      'collector_batches_per_ip:<address>',
    );
    expect(keyClass('signup_per_ip:2001:db8:1:2::/64')).toBe('signup_per_ip:<address>');
    expect(keyClass('lookup_numbers_per_prefix:+1415555')).toBe('lookup_numbers_per_prefix:+<n>');
    expect(keyClass('charged_card:poll_ocK3LdsqpPoKazzx')).toBe('charged_card:<id>');
    expect(keyClass('charged_card:poll_QCZuLpoK-dflhvc_')).toBe('charged_card:<id>');
    expect(keyClass('shard:global_counter')).toBe('shard:global_counter');
    expect(keyClass('shard:7')).toBe('shard:<n>');
    expect(keyClass(null)).toBe('<unnamed>');
  });

  it('tells a visitor key, a shared key and a fixed set apart', () => {
    expect(keyKind('lookup_per_visitor:<uuid>', 30, 30)).toBe('visitor');
    // An account's main purchase: one object per paying visitor, named by a token's hash.
    expect(keyClass(`main_purchase:${'0a'.repeat(32)}`)).toBe('main_purchase:<id>');
    expect(keyKind('main_purchase:<id>', 10, 30)).toBe('visitor');
    expect(keyKind('collector_batches_per_ip:<address>', 1, 30)).toBe('shared-key');
    expect(keyKind('lookup_numbers_per_prefix:+<n>', 28, 30)).toBe('shared-key');
    expect(keyKind('shard:<n>', 8, 30)).toBe('fixed-set');
    // The experiment shards, however many a short run touched.
    expect(keyKind('experiments:<n>', 30, 30)).toBe('fixed-set');
  });

  it("reads a fixed set's busiest share from the run, never below an even split", () => {
    const shards = groupByKeyClass(
      [
        { name: 'shard:0', requests: 6, peakPerSecond: 2, storageBytes: 8192 },
        { name: 'shard:1', requests: 2, peakPerSecond: 1, storageBytes: 4096 },
        { name: 'shard:2', requests: 2, peakPerSecond: 1, storageBytes: null },
        { name: 'shard:3', requests: 0, peakPerSecond: 0, storageBytes: 4096 },
      ],
      30,
    );
    expect(shards).toHaveLength(1);
    const [figures] = shards;
    expect(figures?.kind).toBe('fixed-set');
    expect(figures?.busiestShare).toBeCloseTo(0.6, 9);
    expect(figures?.largestBytes).toBe(8192);
    expect(figures?.totalBytes).toBe(16384);
    if (!figures) return;
    expect(busiestShareAtScale(figures, 0.01)).toBeCloseTo(0.6, 9);
    expect(busiestShareAtScale({ ...figures, busiestShare: 0.1 }, 0.01)).toBe(0.25);
    expect(busiestShareAtScale({ ...figures, kind: 'shared-key' }, 0.01)).toBe(0.01);
    // A set the worker sizes is split evenly by its hash at scale.
    expect(busiestShareAtScale({ ...figures, keyClass: 'experiments:<n>' }, 0.01)).toBe(1 / 64);
  });

  it("holds a visitor's object to its own burst and a shared key to the assumed share", () => {
    const base = {
      objects: 30,
      requests: 60,
      busiestShare: 0.05,
      peakPerSecond: 3,
      largestBytes: 4096,
      totalBytes: 30 * 4096,
      requestsPerVisitor: { lookup: 2, paying: 2 },
      bytesPerVisitor: { lookup: 4096, paying: 4096 },
    };
    const classes: KeyClassLoad[] = [
      { ...base, keyClass: 'a:<uuid>', kind: 'visitor' },
      { ...base, keyClass: 'b:<address>', kind: 'shared-key' },
    ];
    const lines = limitLines(
      { d1: {}, queues: {}, durableObjects: { NS: classes } },
      { sharedKeyShare: 0.01 },
    );
    const [visitorRequests, visitorSize, sharedRequests] = lines;
    expect(visitorRequests?.demand).toEqual({ kind: 'fixed-rate', perSecond: 3 });
    expect(visitorSize?.demand).toEqual({ kind: 'size', bytes: 4096 });
    expect(sharedRequests?.demand).toEqual({
      kind: 'rate',
      perVisitor: { lookup: 2, paying: 2 },
      share: 0.01,
    });
  });
});

describe('classifying SQL', () => {
  it('reads the verb past comments and a WITH clause', () => {
    expect(sqlVerb('-- note\nINSERT OR IGNORE INTO seen_events VALUES (1)')).toBe('insert');
    expect(sqlVerb('WITH x AS (SELECT 1) UPDATE t SET a = 1')).toBe('update');
    expect(sqlVerb('WITH x AS (SELECT 1) SELECT * FROM x')).toBe('select');
    expect(isWrite('/* a */ delete from t')).toBe(true);
    expect(isWrite('SELECT name FROM seen_events')).toBe(false);
  });

  it('holds a provider health object to the size it keeps, not to a growth per visitor', () => {
    const health: KeyClassLoad = {
      keyClass: 'provider:stripe',
      kind: 'fixed-set',
      objects: 1,
      requests: 48,
      busiestShare: 1,
      peakPerSecond: 2,
      largestBytes: 819,
      totalBytes: 819,
      requestsPerVisitor: { lookup: 0, paying: 2.4 },
      bytesPerVisitor: { lookup: 0, paying: 41 },
    };
    const [, size] = limitLines(
      { d1: {}, queues: {}, durableObjects: { PROVIDER_HEALTH: [health] } },
      { sharedKeyShare: 0.01 },
    );
    expect(size?.what).toBe('largest object (one state of a fixed size)');
    expect(size?.demand).toEqual({ kind: 'size', bytes: 819 });
    // A shard, whose rows are kept, still grows with its visitors to the horizon.
    const [, shard] = limitLines(
      {
        d1: {},
        queues: {},
        durableObjects: { EXPERIMENT_SHARDS: [{ ...health, keyClass: 'experiments:<n>' }] },
      },
      { sharedKeyShare: 0.01 },
    );
    expect(shard?.demand.kind).toBe('storage');
  });

  it("holds a shard's tables each to its own days where a replay weighed them", () => {
    const shard: KeyClassLoad = {
      keyClass: 'experiments:<n>',
      kind: 'fixed-set',
      objects: 64,
      requests: 100,
      busiestShare: 1 / 64,
      peakPerSecond: 2,
      largestBytes: 8192,
      totalBytes: 8192,
      requestsPerVisitor: { lookup: 4, paying: 28 },
      bytesPerVisitor: { lookup: 300, paying: 1700 },
      tables: [
        {
          table: 'xp_exposures',
          bytesPerVisitor: { lookup: 200, paying: 1600 },
          retentionDays: null,
        },
        { table: 'xp_answers', bytesPerVisitor: { lookup: 100, paying: 100 }, retentionDays: 35 },
      ],
    };
    const [, size] = limitLines(
      { d1: {}, queues: {}, durableObjects: { EXPERIMENT_SHARDS: [shard] } },
      { sharedKeyShare: 0.01 },
    );
    expect(size?.demand).toMatchObject({
      kind: 'storage',
      parts: [
        { label: 'xp_exposures', retentionDays: null },
        { label: 'xp_answers', retentionDays: 35 },
      ],
    });
    // The answers' rows count for their 35 days, not for the horizon's 396.
    const kept = read(size!, TEN_M, MIX, 396).peak;
    const allKept = read(
      limitLines(
        { d1: {}, queues: {}, durableObjects: { EXPERIMENT_SHARDS: [{ ...shard, tables: [] }] } },
        { sharedKeyShare: 0.01 },
      )[1]!,
      TEN_M,
      MIX,
      396,
    ).peak;
    const answersMix = mixed({ lookup: 100, paying: 100 }, MIX);
    const perDay = (TEN_M.visitorsPerMonth / 30) * (1 / 64);
    expect(allKept - kept).toBeCloseTo(answersMix * perDay * (396 - 35), -2);
  });
});
