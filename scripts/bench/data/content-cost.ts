import { PICTURES_PATH } from '../../../shared/pictures';
import { BENCH_CONTENT_SCREEN } from '../bench-content';
import { printTable } from '../print-table';
import type { Run } from './measure';

/**
 * What a marketer's content costs a visitor (docs/marketers.md, "Content"): the run's landing is
 * drawn from a content document with a picture of the library (../bench-content.ts). Its copy,
 * order and alt text come with the config, one KV key read with the others once an isolate's
 * config expires, never per visitor; its picture is a request per size the browser picks, answered
 * from R2 the first time a size is asked for and from the data center's cache after that.
 */
export function printContentCost(
  run: Run,
  logs: readonly Record<string, unknown>[],
  visitors: number,
): void {
  if (visitors === 0) return;
  const pictureRequests = logs.filter(
    (line) => typeof line.path === 'string' && line.path.startsWith(`${PICTURES_PATH}/`),
  ).length;
  const r2 = (field: 'reads' | 'puts') =>
    (run.afterPaying.counts.r2.PICTURES?.[field] ?? 0) -
    (run.before.counts.r2.PICTURES?.[field] ?? 0);
  const reads = r2('reads');
  // A size is made only within its address's limit: one rate limiter request a make.
  const makeLimits = (snapshot: Run['before']) =>
    Object.values(snapshot.counts.durableObjects.RATE_LIMITER?.objects ?? {})
      .filter((object) => object.name?.startsWith('picture_make_per_address:'))
      .reduce((sum, object) => sum + object.requests, 0);
  const limits = makeLimits(run.afterPaying) - makeLimits(run.before);
  const month = 100e6;
  const perVisitor = pictureRequests / visitors;
  console.log(
    `\nContent (${BENCH_CONTENT_SCREEN} drawn from a content document: new headline, reviews above` +
      ' the form, a 1200×800 picture of the library):\n',
  );
  printTable(
    ['', 'in this run', 'per visitor', '100 M visitors/month'],
    [
      [
        'picture requests (each a worker request)',
        String(pictureRequests),
        perVisitor.toFixed(2),
        `${((perVisitor * month) / 1e6).toFixed(0)} M, answered from the data center's cache; browsers keep them a year`,
      ],
      [
        'R2 PICTURES reads (get, head, list)',
        String(reads),
        (reads / visitors).toFixed(3),
        'one make per size per data center cache miss, not per visitor',
      ],
      [
        'R2 PICTURES puts (sizes made)',
        String(r2('puts')),
        (r2('puts') / visitors).toFixed(3),
        'each size once, for good (the name is the content)',
      ],
      ['KV reads for content', '-', '0', '0: the content key is read with the config, per isolate'],
      [
        'RATE_LIMITER requests (a make’s limit)',
        String(limits),
        (limits / visitors).toFixed(3),
        'one per size made, as the R2 puts',
      ],
      ['D1, queue', '0', '0', '0'],
    ],
  );
}
