// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeList } from '../../../console/kit/ChangeList';
import { ConflictNotice } from '../../../console/kit/ConflictNotice';
import type { Change } from '../../../shared/console-api/versions';

afterEach(cleanup);

/** A headline changed in English and added in German, and a weight. */
const CHANGES: Change[] = [
  { path: 'copy.en.screens.one_pager.title', kind: 'changed', before: 'Find', after: 'Locate' },
  { path: 'copy.de.screens.one_pager.title', kind: 'added', after: 'Orten' },
  { path: 'split.variants.lp1.weight', kind: 'changed', before: 50, after: 30 },
];

describe('the change list of a review, a conflict and History', () => {
  it('shows a text that changed in several languages side by side, each before and after', () => {
    render(<ChangeList label="Copy changes this publish makes" changes={CHANGES} />);
    const list = screen.getByRole('list', { name: 'Copy changes this publish makes' });
    const [text, weight] = within(list).getAllByRole('listitem');
    const table = within(text!).getByRole('table', { name: /^Headline, before and after/ });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Language', 'Before', 'After'],
      ['English', 'Find', 'Locate'],
      ['German', 'the text in code', 'Orten'],
    ]);
    expect(text!.textContent).toContain('screens.one_pager.title');
    expect(weight!.textContent).toBe('Weight of lp1: 50 → 30 split.variants.lp1.weight');
  });

  it('counts what it lists: a text changed in two languages is one change of a conflict', () => {
    render(
      <ConflictNotice
        head={{
          id: 'v7',
          seq: 7,
          author: 'anna@example.com',
          at: '2026-11-27T10:00:00Z',
          note: '',
          source: 'console',
          phase: 1,
          base: 6,
        }}
        changes={CHANGES}
        action="Nothing was published."
        onTakeLive={() => {}}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/^Someone published v7 since you started: 2 changes\./);
    expect(within(alert).getAllByRole('listitem')).toHaveLength(2);
  });
});
