import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'node-sql-parser';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/local-platform';
import { archiveLine } from '../../worker/collector/archive-line';
import type { QueuedEvent } from '../../worker/collector/queued-event';

/**
 * The BigQuery example of docs/analytics.md, as far as it can be checked offline (BigQuery runs
 * nowhere but Google's cloud): its view and query parse as BigQuery SQL, and its table declares
 * the columns an archive line has, as the DuckDB and ClickHouse blocks do, which the warehouse
 * test runs (test/unit/archive-warehouse.test.ts). A column the worker adds to the line and a
 * block forgets fails here.
 */

const page = readFileSync(join(PROJECT_ROOT, 'docs', 'analytics.md'), 'utf8');
const blocks = [...page.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');

function blockWith(marker: string): string {
  const found = blocks.filter((block) => block.includes(marker));
  expect(found, marker).toHaveLength(1);
  return found[0] as string;
}

const BIGQUERY = blockWith('CREATE EXTERNAL TABLE');
const CLICKHOUSE = blockWith('FROM s3(');

/** The statements of a block, each without its trailing semicolon. */
function statements(block: string): string[] {
  return block
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

/** The top-level names of a column list such as `a INT64, b STRUCT<x STRING>, c JSON`. */
function columnNames(list: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index <= list.length; index++) {
    const char = list[index];
    if (char === '<' || char === '(') depth += 1;
    if (char === '>' || char === ')') depth -= 1;
    if ((char === ',' && depth === 0) || index === list.length) {
      const name = list.slice(start, index).trim().split(/\s+/)[0];
      if (name) names.push(name);
      start = index + 1;
    }
  }
  return names;
}

/** The keys of an archive line as the worker writes it today. */
const LINE_COLUMNS = Object.keys(
  archiveLine({
    v: 2,
    source: 'browser',
    event: {
      event_type: 'screen__load',
      insert_id: 'ins-00000001',
      time: Date.UTC(2026, 10, 22, 8),
      session_id: Date.UTC(2026, 10, 22, 7, 59),
      device_id: '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a',
      user_id: null,
      event_properties: { screen_name: 'one_pager' },
    },
    context: {
      received_at: Date.UTC(2026, 10, 22, 8),
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0',
      country: 'DE',
      page_url: 'https://funnel.test/',
      ad_cookies: { fbc: null, fbp: null, ttp: null, ttclid: null },
      consent: 'granted',
    },
  } as unknown as QueuedEvent),
);

describe("docs/analytics.md's BigQuery example, checked offline", () => {
  it('its view and query parse as BigQuery SQL', () => {
    const parser = new Parser();
    const [, view, query] = statements(BIGQUERY);
    expect(view).toMatch(/^CREATE VIEW/);
    for (const statement of [view, query]) {
      expect(() => parser.astify(statement ?? '', { database: 'BigQuery' })).not.toThrow();
    }
  });

  it('its table declares the columns an archive line has, as the ClickHouse block does', () => {
    const table = /CREATE EXTERNAL TABLE \S+ \(([\s\S]*?)\)\s*WITH PARTITION COLUMNS/.exec(
      BIGQUERY,
    );
    const clickhouse = /'JSONEachRow',\s*'([\s\S]*?)'\)\s*WHERE/.exec(CLICKHOUSE);
    expect(columnNames(table?.[1] ?? '').sort()).toEqual([...LINE_COLUMNS].sort());
    expect(columnNames((clickhouse?.[1] ?? '').replace(/\\'/g, "'")).sort()).toEqual(
      [...LINE_COLUMNS].sort(),
    );
  });
});
