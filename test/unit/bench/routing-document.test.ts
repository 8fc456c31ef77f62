import { describe, expect, it } from 'vitest';
import { BENCH_NOW, benchRouting, benchVisitors } from '../../../scripts/bench/routing-document';
import { parseRouting } from '../../../shared/config/routing';
import { visitorFacts } from '../../../worker/routing/attributes';
import { chooseRoute, compileRouting } from '../../../worker/routing/router';

/**
 * The routing bench's document must be one the worker would run, of the size the budget names,
 * and its visitors mostly the worst case (every route tested): else its figure says nothing.
 */
describe('the routing bench measures what the budget names', () => {
  it('50 routes over 30 audiences that the validator accepts', () => {
    const parsed = parseRouting(JSON.stringify(benchRouting()));
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.value.routes).toHaveLength(50);
    expect(Object.keys(parsed.value.audiences)).toHaveLength(30);
  });

  it('most visitors fall through to the default route, some are taken earlier', () => {
    const compiled = compileRouting(benchRouting());
    const chosen = benchVisitors(1000).map(
      (visitor) => chooseRoute(compiled, visitorFacts(visitor), BENCH_NOW).id,
    );
    const fallThrough = chosen.filter((id) => id === 'default').length;
    expect(fallThrough).toBeGreaterThan(700);
    expect(fallThrough).toBeLessThan(1000);
  });
});
