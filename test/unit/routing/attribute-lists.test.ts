import { describe, expect, it } from 'vitest';
import { ROUTE_LANGUAGES } from '../../../shared/routing';
import { SUPPORTED_LANGUAGES } from '../../../worker/i18n';
import { parseRouting } from '../../../worker/routing/schema';

/** The fixed lists a rule picks from, and what the validator refuses outright. */

const routingWith = (attribute: string, values: (string | number)[]) => ({
  version: 1,
  audiences: { chosen: { groups: [[{ attribute, operator: 'in', values }]] } },
  routes: [
    { id: 'chosen', audience: 'chosen', flow: 'default' },
    { id: 'default', flow: 'default' },
  ],
});

describe('the lists a rule picks from', () => {
  it('offers exactly the page languages the funnel is translated into', () => {
    expect([...ROUTE_LANGUAGES].sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
  });

  it('takes ISO countries and refuses anything else, at the value’s path', () => {
    expect(parseRouting(routingWith('country', ['DE', 'AT', 'CH'])).ok).toBe(true);
    expect(parseRouting(routingWith('country', ['DE', 'XX']))).toMatchObject({
      ok: false,
      issues: [
        {
          path: 'audiences.chosen.groups.0.0.values.1',
          message: '"XX" is not one of the Country values',
        },
      ],
    });
  });
});

describe('what a route may never depend on', () => {
  it.each(['bot', 'is_bot', 'user_agent'])('refuses "%s" as cloaking', (attribute) => {
    const parsed = parseRouting(routingWith(attribute, ['yes']));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.issues).toEqual([
        {
          path: 'audiences.chosen.groups.0.0.attribute',
          message: expect.stringContaining('cloaking'),
        },
      ]);
    }
  });
});
