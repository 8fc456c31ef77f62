import type { ExperimentDocument, ExperimentsDocument } from '../../shared/config/experiments';

/**
 * The experiments the benches run beside the split (flow layer): one in each other layer, each
 * entering 80% of the visitors who reach its trigger. `countries` puts the landing and paywall
 * tests on an audience of those countries (the routing bench's CPU per page); without it every
 * visitor matches, the most rows a visitor can cost (the data bench's storage per visitor).
 * Each swap keeps the controls the benches' journeys use (phone field, e-mail field, Continue).
 */
export function benchExperimentsDocument(
  options: { countries?: string[] } = {},
): ExperimentsDocument {
  const test = (
    layer: ExperimentDocument['layer'],
    change: ExperimentDocument['variants'][string]['change'],
    audience: ExperimentDocument['audience'] = {},
  ): ExperimentDocument => ({
    name: `${layer} test`,
    status: 'running',
    layer,
    audience,
    coverage: 0.8,
    seed: `bench-${layer}`,
    phase: 1,
    control: 'a',
    variants: { a: { weight: 1, change: {} }, b: { weight: 1, change } },
  });
  const countries: ExperimentDocument['audience'] = options.countries
    ? {
        groups: [
          [{ attribute: 'country' as const, operator: 'in' as const, values: options.countries }],
        ],
      }
    : {};
  return {
    version: 'bench',
    experiments: {
      landing: test('landing', { screens: { landing: 'one_pager_ai' } }, countries),
      signup: test('signup', { screens: { signup: 'signup_testim' } }),
      paywall: test('paywall', { plans: ['monthly_3d_intro', 'quarterly'] }, countries),
      upsell: test('upsell', { screens: { upsell: 'upsell_guide' } }),
    },
  };
}
