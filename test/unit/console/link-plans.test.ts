import { describe, expect, it } from 'vitest';
import {
  LINK_PLANS_WARNING,
  linkPlanNotice,
  linkPlanNotices,
  reviewText,
  warningText,
} from '../../../console/kit/link-plans';
import type { Condition, RouteDocument, RoutingDocument } from '../../../shared/config/routing';

/**
 * Which routes give their plans to whoever opens a link (console/kit/link-plans.ts): what the route
 * card and the review before publishing warn about.
 */

const condition = (
  attribute: Condition['attribute'],
  values: (string | number)[],
  operator: Condition['operator'] = 'in',
): Condition => ({ attribute, operator, values });

function routing(groups: Condition[][], route: Partial<RouteDocument> = {}, base?: string[]) {
  const document: RoutingDocument = {
    version: 't',
    audiences: { offer: { groups } },
    routes: [
      { id: 'offer', audience: 'offer', flow: 'default', plans: ['quarterly'], ...route },
      { id: 'default', flow: 'default', ...(base ? { plans: base } : {}) },
    ],
  };
  return document;
}

const noticeOf = (document: RoutingDocument) => linkPlanNotice(document.routes[0]!, document);

describe('a route whose plans a link gives away', () => {
  it.each<[string, Condition[][]]>([
    ['a source', [[condition('source', ['tiktok'])]]],
    ['a click id', [[condition('click_id', ['tiktok'])]]],
    ['any click id (none of: none)', [[condition('click_id', ['none'], 'not_in')]]],
    ['a campaign text', [[condition('utm_campaign', ['bf'], 'contains')]]],
    ['an entry alias', [[condition('entry', ['bf24'], 'equals')]]],
    ['a link in one group of two', [[condition('hour', [9])], [condition('entry', ['bf'])]]],
  ])('is named when its audience asks the link for %s', (_name, groups) => {
    expect(noticeOf(routing(groups))).toEqual({
      route: 'offer',
      plans: ['quarterly'],
      ownPlans: true,
      countries: null,
    });
  });

  it.each<[string, Condition[][]]>([
    ['only what a visitor cannot type', [[condition('country', ['DE'])], [condition('hour', [9])]]],
    ['a link value left out', [[condition('source', ['meta'], 'not_in')]]],
    ['no click id', [[condition('click_id', ['none'])]]],
    ['a click id or none', [[condition('click_id', ['tiktok', 'none'])]]],
    ['a network left out, none admitted', [[condition('click_id', ['meta'], 'not_in')]]],
  ])('is not named when its audience reads %s', (_name, groups) => {
    expect(noticeOf(routing(groups))).toBeNull();
  });

  it('is not named when its plans are the default route’s', () => {
    const source = [[condition('source', ['tiktok'])]];
    expect(noticeOf(routing(source, { plans: ['quarterly'] }, ['quarterly']))).toBeNull();
    expect(noticeOf(routing(source, { plans: undefined }))).toBeNull();
    // Each screen's own plans, where the default route sets some, differ too.
    const own = noticeOf(routing(source, { plans: undefined }, ['monthly']));
    expect(own).toEqual({ route: 'offer', plans: null, ownPlans: false, countries: null });
    // It sets no plans, so the warning does not say "these plans".
    expect(warningText(own!)).toBe(
      'Anyone who opens this link gets the screens’ own plans, not route default’s.',
    );
    expect(
      noticeOf(routing(source, { plans: ['monthly', 'quarterly'] }, ['quarterly', 'monthly'])),
    ).not.toBeNull();
  });

  it('is named when only its upsell tiers or its guide price differ', () => {
    const source = [[condition('source', ['tiktok'])]];
    const upsell = { plans: undefined, upsellPlans: ['upsell_monthly_599'] };
    expect(noticeOf(routing(source, upsell))).toEqual({
      route: 'offer',
      plans: null,
      ownPlans: true,
      countries: null,
    });
    expect(noticeOf(routing(source, { plans: undefined, guidePlans: ['guide_1799'] }))).toEqual({
      route: 'offer',
      plans: null,
      ownPlans: true,
      countries: null,
    });
    // The same tiers as the default route give nothing away.
    const same = routing(source, upsell);
    same.routes[1] = { ...same.routes[1]!, upsellPlans: ['upsell_monthly_599'] };
    expect(noticeOf(same)).toBeNull();
  });

  it('says the countries when every group the link meets also requires one', () => {
    const dach = routing([
      [condition('click_id', ['tiktok']), condition('country', ['DE', 'AT'])],
      [condition('source', ['meta']), condition('country', ['CH'])],
      // Not met by a link: its country does not count.
      [condition('country', ['FR'])],
    ]);
    expect(noticeOf(dach)?.countries).toEqual(['AT', 'CH', 'DE']);
    expect(reviewText(noticeOf(dach)!)).toBe(
      `Route offer (plans quarterly): ${LINK_PLANS_WARNING} Source, UTM tags, entry alias and click ids are typed into links, not verified. Kept to AT, CH or DE: its audience also requires the country, which comes from the visitor’s IP address, not from the link (a VPN can still change it).`,
    );
    const open = routing([
      [condition('click_id', ['tiktok']), condition('country', ['DE'])],
      [condition('source', ['meta']), condition('country', ['DE'], 'not_in')],
    ]);
    expect(noticeOf(open)?.countries).toBeNull();
    expect(reviewText(noticeOf(open)!)).toContain('A link alone is enough, from anywhere');
  });

  it('lists every such route in order, never the default', () => {
    const document = routing([[condition('source', ['tiktok'])]], {}, ['monthly']);
    document.routes.splice(1, 0, { id: 'weekday', audience: 'offer', flow: 'default' });
    expect(linkPlanNotices(document).map((notice) => notice.route)).toEqual(['offer', 'weekday']);
  });
});
