import { describe, expect, it } from 'vitest';
import {
  archiveDayPrefix,
  archiveObjectKey,
  archivePartition,
  fromNdjson,
  recordsByPartition,
  toNdjson,
} from '../../../worker/collector/archive-layout';
import { type ArchiveLine, archiveLine } from '../../../worker/collector/archive-line';

const RECEIVED = Date.UTC(2026, 10, 22, 8, 30);

function aRecord(insertId: string, receivedAt = RECEIVED): ArchiveLine {
  return archiveLine({
    v: 1,
    source: 'browser',
    event: {
      insert_id: insertId,
      event_type: 'screen__load',
      time: receivedAt - 1000,
      device_id: '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a',
      user_id: null,
      session_id: receivedAt - 60_000,
      event_properties: { screen_name: 'one_pager', note: 'a\nb "quoted"' },
    },
    context: {
      received_at: receivedAt,
      ip: '203.0.113.7',
      user_agent: null,
      country: 'DE',
      page_url: null,
      consent: 'granted',
      ad_cookies: { fbc: null, fbp: null, ttp: null, ttclid: null },
    },
  });
}

describe('the event archive layout', () => {
  it('partitions by the UTC day and hour the collector received the event', () => {
    expect(archivePartition(RECEIVED)).toBe('events/dt=2026-11-22/hour=08/');
    expect(archivePartition(Date.UTC(2026, 10, 22, 23, 59, 59, 999))).toBe(
      'events/dt=2026-11-22/hour=23/',
    );
    expect(archivePartition(Date.UTC(2026, 10, 23))).toBe('events/dt=2026-11-23/hour=00/');
    expect(archiveDayPrefix('2026-11-22')).toBe('events/dt=2026-11-22/');
  });

  it('names an object by its partition, write time and token, with the .ndjson.gz suffix', () => {
    expect(archiveObjectKey(archivePartition(RECEIVED), 1795334400123, '5f3a9c0e')).toBe(
      'events/dt=2026-11-22/hour=08/1795334400123-5f3a9c0e.ndjson.gz',
    );
  });

  it('groups records by partition, keeping their order', () => {
    const groups = recordsByPartition([
      aRecord('a'),
      aRecord('b', RECEIVED - 3_600_000),
      aRecord('c', RECEIVED + 60_000),
    ]);
    expect(
      [...groups].map(([partition, records]) => [partition, records.map((r) => r.insert_id)]),
    ).toEqual([
      ['events/dt=2026-11-22/hour=08/', ['a', 'c']],
      ['events/dt=2026-11-22/hour=07/', ['b']],
    ]);
  });

  it('writes one JSON line per record, newlines inside values escaped, and reads them back', () => {
    const records = [aRecord('a'), aRecord('b')];
    const text = toNdjson(records);
    expect(text.split('\n')).toHaveLength(3);
    expect(text.endsWith('\n')).toBe(true);
    expect(fromNdjson(text)).toEqual(records);
    expect(fromNdjson(`${text}\n`)).toEqual(records);
  });
});
