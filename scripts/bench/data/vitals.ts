import { gunzipSync } from 'node:zlib';
import type { Miniflare } from 'miniflare';
import { VITALS_EVENT } from '../../../shared/analytics/vitals';
import { DEFAULT_VITALS_SAMPLE_RATE } from '../../../worker/collector/vitals-sample';
import { printTable } from '../print-table';
import { formatBytes } from './report';

/**
 * What the field vitals cost (docs/analytics.md, "Field vitals"): the run samples every visitor
 * (VITALS_SAMPLE_RATE=1, so the other tables are the upper bound), and this reads the event
 * archive the run wrote to say how many `web_vitals` events a visitor sent and how many archive
 * bytes they take, then what they come to at the default share of visitors and 100 M visitors a
 * month. They ride in batches the tracker sends anyway, so they add no request and no queue
 * message; the experiment shards keep them as histograms (a few hundred rows an arm, not a row a
 * visitor) and a bit on each exposure row.
 */

export const BENCH_VITALS_SAMPLE_RATE = '1';

export interface ArchiveTally {
  events: number;
  lineBytes: number;
  objectBytes: number;
  vitalsEvents: number;
  vitalsLineBytes: number;
}

/** Every line of every archive object: all events, and the vitals ones apart. */
export async function tallyArchive(mf: Miniflare): Promise<ArchiveTally> {
  const bucket = await mf.getR2Bucket('EVENTS_ARCHIVE');
  const tally = { events: 0, lineBytes: 0, objectBytes: 0, vitalsEvents: 0, vitalsLineBytes: 0 };
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: 'events/', cursor });
    for (const listed of page.objects) {
      const object = await bucket.get(listed.key);
      if (!object) continue;
      const gzipped = Buffer.from(await object.arrayBuffer());
      tally.objectBytes += gzipped.length;
      for (const line of gunzipSync(gzipped).toString('utf8').split('\n')) {
        if (line === '') continue;
        const bytes = Buffer.byteLength(line) + 1;
        tally.events++;
        tally.lineBytes += bytes;
        if ((JSON.parse(line) as { event_type?: string }).event_type === VITALS_EVENT) {
          tally.vitalsEvents++;
          tally.vitalsLineBytes += bytes;
        }
      }
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return tally;
}

/** The vitals' part of all, had only `rate` of the visitors sent them. */
const share = (part: number, whole: number, rate: number) => {
  const sampled = part * rate;
  const all = whole - part + sampled;
  return all > 0 ? `${((100 * sampled) / all).toFixed(1)}%` : '-';
};

/** The vitals' cost per visitor and at 100 M visitors a month, at the default share. */
export function printVitalsCost(tally: ArchiveTally, visitors: number): void {
  if (visitors === 0) return;
  const perSampled = tally.vitalsEvents / visitors;
  const bytesPerSampled = tally.vitalsLineBytes / visitors;
  // Gzip's ratio over the whole archive stands for the vitals lines' own.
  const ratio = tally.lineBytes > 0 ? tally.objectBytes / tally.lineBytes : 1;
  const rate = DEFAULT_VITALS_SAMPLE_RATE;
  const month = 100e6;
  console.log(
    `\nField vitals (every visitor sampled in this run; the default share is ${rate * 100}%):` +
      ` ${tally.vitalsEvents} web_vitals events of ${tally.events} archived.\n`,
  );
  printTable(
    [
      '',
      'per sampled visitor',
      `per visitor at ${rate * 100}%`,
      `100 M visitors/month at ${rate * 100}%`,
    ],
    [
      [
        'web_vitals events',
        perSampled.toFixed(2),
        (perSampled * rate).toFixed(3),
        `${((perSampled * rate * month) / 1e6).toFixed(1)} M (${share(tally.vitalsEvents, tally.events, rate)} of events)`,
      ],
      [
        'archive bytes (raw lines)',
        formatBytes(bytesPerSampled),
        formatBytes(bytesPerSampled * rate),
        `${formatBytes(bytesPerSampled * rate * month)} (${share(tally.vitalsLineBytes, tally.lineBytes, rate)} of bytes)`,
      ],
      [
        'archive bytes (gzip, R2)',
        formatBytes(bytesPerSampled * ratio),
        formatBytes(bytesPerSampled * ratio * rate),
        formatBytes(bytesPerSampled * ratio * rate * month),
      ],
      ['requests, queue messages', '0', '0', '0 (in the batches the tracker sends anyway)'],
    ],
  );
}
