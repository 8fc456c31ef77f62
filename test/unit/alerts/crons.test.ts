import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALERTS_CRON, RETENTION_CRON } from '../../../worker/scheduled';

describe('the crons', () => {
  it('wrangler.toml schedules both expressions worker/scheduled.ts tells apart', () => {
    const toml = readFileSync('wrangler.toml', 'utf8');
    expect(toml).toContain(`crons = ["${RETENTION_CRON}", "${ALERTS_CRON}"]`);
  });
});
