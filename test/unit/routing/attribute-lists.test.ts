import { describe, expect, it } from 'vitest';
import { parseRouting } from '../../../shared/config/routing';
import { ROUTE_LANGUAGES } from '../../../shared/routing';
import { SUPPORTED_LANGUAGES } from '../../../worker/i18n';

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

describe('the click id a rule can require', () => {
  it('takes the networks and none; refuses anything else at the value’s path', () => {
    expect(parseRouting(routingWith('click_id', ['meta', 'tiktok', 'google', 'none'])).ok).toBe(
      true,
    );
    expect(parseRouting(routingWith('click_id', ['tiktok', 'ttclid', 'TikTok', 1]))).toMatchObject({
      ok: false,
      issues: [
        {
          path: 'audiences.chosen.groups.0.0.values.1',
          message:
            '"ttclid" is not one of the Ad click id values: name the network, tiktok for ttclid',
        },
        {
          path: 'audiences.chosen.groups.0.0.values.2',
          message: '"TikTok" is not one of the Ad click id values',
        },
        { path: 'audiences.chosen.groups.0.0.values.3', message: 'must be text' },
      ],
    });
  });

  it('compares by list only: contains or starts_with is refused at the operator', () => {
    const routing = routingWith('click_id', ['tiktok']);
    routing.audiences.chosen.groups[0]![0]!.operator = 'contains';
    expect(parseRouting(routing)).toMatchObject({
      ok: false,
      issues: [
        {
          path: 'audiences.chosen.groups.0.0.operator',
          message: '"contains" does not apply to click_id (use in, not_in)',
        },
      ],
    });
  });
});
