import { describe, expect, it } from 'vitest';
import { rollbackNotice } from '../../../console/history/rollback-text';

describe('the roll back’s confirm step', () => {
  it('says a roll back to other shares starts a new phase, whose results count afresh', () => {
    expect(rollbackNotice(false)).toBe(
      'If its shares of the variants differ from the live ones, for the split or for an experiment, this starts a new phase: those results count afresh from it, and the current phase’s stay under its number.',
    );
  });

  it('says unpublished edits are discarded, after the phase', () => {
    const notice = rollbackNotice(true);
    expect(notice).toMatch(/starts a new phase/);
    expect(notice.endsWith(' Your edits that are not published are discarded.')).toBe(true);
    expect(rollbackNotice(false)).not.toContain('edits');
  });
});
