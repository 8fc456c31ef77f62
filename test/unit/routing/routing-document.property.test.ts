import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { Condition, RouteDocument, RoutingDocument } from '../../../shared/config/routing';
import { parseRouting } from '../../../shared/config/routing';
import { PLAN_FAMILIES, type PlanFamilyId } from '../../../shared/plans/catalogue';
import {
  type AttributeDefinition,
  OPERATORS_BY_KIND,
  ROUTE_ATTRIBUTE_NAMES,
  ROUTE_ATTRIBUTES,
  type RouteAttribute,
  SOURCES,
} from '../../../shared/routing';
import { DEFAULT_EXPERIMENTS, DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { checkFullDocument } from '../../../worker/config/document';

/**
 * The routing validator over documents built from the fixed lists (shared/routing.ts): every
 * valid one parses, and its checked copy parses again to itself (what the console publishes is
 * what the edge reads); every single fault a marketer can make is named at its exact path, which
 * is where the console puts the message.
 */

const RUNS = { numRuns: 150 };

const definitionOf = (attribute: RouteAttribute): AttributeDefinition =>
  ROUTE_ATTRIBUTES[attribute];

const slug = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,11}$/);

/** Campaign text as a marketer types it: no outer spaces, any case, some non-ASCII. */
const campaignText = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 24 })
  .filter((value) => value.trim() === value && value.length <= 100);

const condition: fc.Arbitrary<Condition> = fc
  .constantFrom(...ROUTE_ATTRIBUTE_NAMES)
  .chain((attribute) => {
    const definition = definitionOf(attribute);
    const operators = OPERATORS_BY_KIND[definition.kind] as readonly Condition['operator'][];
    const values: fc.Arbitrary<(string | number)[]> =
      definition.kind === 'text'
        ? fc.uniqueArray(campaignText, { minLength: 1, maxLength: 4 })
        : fc.subarray([...(definition.values ?? [])], {
            minLength: 1,
            maxLength: Math.min(6, definition.values?.length ?? 0),
          });
    return fc.record({
      attribute: fc.constant(attribute),
      operator: fc.constantFrom(...operators),
      values,
    });
  });

const audience = fc.record(
  {
    label: fc.string({ minLength: 1, maxLength: 80 }),
    groups: fc.array(fc.array(condition, { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 3,
    }),
  },
  { requiredKeys: ['groups'] },
);

const MAIN_FAMILIES = (Object.keys(PLAN_FAMILIES) as PlanFamilyId[]).filter(
  (family) => PLAN_FAMILIES[family].role === 'main',
);
const FLOWS = Object.keys(DEFAULT_FLOWS.flows);

/** A UTC minute in 2026-2027, written as the schema wants it. */
const minute = fc
  .integer({ min: Date.UTC(2026, 0, 1) / 60_000, max: Date.UTC(2028, 0, 1) / 60_000 })
  .map((n) => n * 60_000);
const iso = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z');

const schedule = fc
  .tuple(minute, minute, fc.constantFrom('both', 'from', 'until'))
  .filter(([a, b]) => a !== b)
  .map(([a, b, ends]) => {
    const [from, until] = a < b ? [a, b] : [b, a];
    if (ends === 'from') return { from: iso(from) };
    if (ends === 'until') return { until: iso(until) };
    return { from: iso(from), until: iso(until) };
  });

/** A route's optional parts. */
const routeExtras = fc.record(
  {
    flow: fc.constantFrom(...FLOWS),
    plans: fc.shuffledSubarray(MAIN_FAMILIES, {
      minLength: 1,
      maxLength: Math.min(4, MAIN_FAMILIES.length),
    }),
    paused: fc.boolean(),
    schedule,
  },
  { requiredKeys: ['flow'] },
);

function routingArbitrary(minRoutes: number): fc.Arbitrary<RoutingDocument> {
  return fc
    .record({
      version: fc.oneof(fc.string({ minLength: 1, maxLength: 64 }), fc.nat()),
      aliases: fc.option(
        fc.dictionary(
          fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,15}$/),
          fc.constantFrom(...SOURCES),
          {
            maxKeys: 5,
          },
        ),
        { nil: undefined },
      ),
      audiences: fc.uniqueArray(fc.tuple(slug, audience), {
        minLength: 1,
        maxLength: 5,
        selector: ([name]) => name,
      }),
      ids: fc.uniqueArray(
        slug.filter((id) => id !== 'default'),
        {
          minLength: minRoutes,
          maxLength: 6,
        },
      ),
      extras: fc.array(routeExtras, { minLength: 7, maxLength: 7 }),
      picks: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
      defaultFlow: fc.constantFrom(...FLOWS),
    })
    .map(({ version, aliases, audiences, ids, extras, picks, defaultFlow }) => {
      const names = audiences.map(([name]) => name);
      const routes: RouteDocument[] = ids.map((id, index) => ({
        id,
        audience: names[(picks[index] ?? 0) % names.length]!,
        ...extras[index]!,
      }));
      routes.push({ id: 'default', flow: defaultFlow });
      return {
        version: version as string,
        ...(aliases ? { aliases } : {}),
        audiences: Object.fromEntries(audiences),
        routes,
      };
    });
}

function issuesOf(raw: unknown): string[] {
  const result = parseRouting(JSON.stringify(raw));
  if (result.ok) return [];
  return (result.issues ?? [{ path: '', message: result.error }]).map((issue) => issue.path);
}

describe('a valid routing document', () => {
  it('parses, and its checked copy parses again to itself', () => {
    fc.assert(
      fc.property(routingArbitrary(0), (document) => {
        const checked = parseRouting(JSON.stringify(document));
        if (!checked.ok) throw new Error(checked.error);
        const again = parseRouting(JSON.stringify(checked.value));
        if (!again.ok) throw new Error(again.error);
        expect(again.value).toEqual(checked.value);
        expect(checked.value.routes).toEqual(document.routes);
        expect(checked.value.version).toBe(String(document.version));
      }),
      RUNS,
    );
  });

  it('passes the whole-document check beside the default split and flows', () => {
    fc.assert(
      fc.property(routingArbitrary(0), (routing) => {
        const checked = checkFullDocument({
          split: DEFAULT_SPLIT,
          flows: DEFAULT_FLOWS,
          routing,
          experiments: DEFAULT_EXPERIMENTS,
          content: EMPTY_CONTENT,
        });
        expect(checked.ok ? [] : checked.errors).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });
});

/** A condition of the document, by where it sits. */
interface ConditionAt {
  audience: string;
  group: number;
  index: number;
}

function conditionAt(document: RoutingDocument, pick: number): ConditionAt {
  const all: ConditionAt[] = [];
  for (const [audience, { groups }] of Object.entries(document.audiences)) {
    groups.forEach((group, g) => {
      group.forEach((_, index) => {
        all.push({ audience, group: g, index });
      });
    });
  }
  return all[pick % all.length]!;
}

const pathOf = (at: ConditionAt) => `audiences.${at.audience}.groups.${at.group}.${at.index}`;

function replaceCondition(document: RoutingDocument, at: ConditionAt, next: unknown) {
  const copy = structuredClone(document);
  (copy.audiences[at.audience]!.groups[at.group] as unknown[])[at.index] = next;
  return copy;
}

const LIST_ATTRIBUTES = ROUTE_ATTRIBUTE_NAMES.filter(
  (attribute) => definitionOf(attribute).kind !== 'text',
);

describe('a single fault is reported at its exact path', () => {
  const withRoutes = routingArbitrary(2);
  const faultArgs = fc.tuple(withRoutes, fc.nat(), fc.nat());

  it('an unknown attribute', () => {
    fc.assert(
      fc.property(
        faultArgs,
        fc.constantFrom('colour', 'city', 'Country', 'utm_id'),
        ([doc, pick], name) => {
          const at = conditionAt(doc, pick);
          const condition = doc.audiences[at.audience]!.groups[at.group]![at.index]!;
          const faulty = replaceCondition(doc, at, { ...condition, attribute: name });
          expect(issuesOf(faulty)).toEqual([`${pathOf(at)}.attribute`]);
        },
      ),
      RUNS,
    );
  });

  it('an operator not for the kind of attribute', () => {
    fc.assert(
      fc.property(
        faultArgs,
        fc.constantFrom(...LIST_ATTRIBUTES),
        fc.constantFrom('equals', 'contains', 'starts_with', 'between', 'IN'),
        ([doc, pick], attribute, operator) => {
          const at = conditionAt(doc, pick);
          const value = definitionOf(attribute).values![0];
          const faulty = replaceCondition(doc, at, { attribute, operator, values: [value] });
          expect(issuesOf(faulty)).toEqual([`${pathOf(at)}.operator`]);
        },
      ),
      RUNS,
    );
  });

  it('a value outside the attribute’s list', () => {
    fc.assert(
      fc.property(
        faultArgs,
        fc.constantFrom(...LIST_ATTRIBUTES),
        fc.constantFrom('zz', 'IOS', 'Mon', 24, -1, 'de-DE', ''),
        ([doc, pick], attribute, wrong) => {
          const definition = definitionOf(attribute);
          fc.pre(!(definition.values ?? []).includes(wrong));
          const at = conditionAt(doc, pick);
          const faulty = replaceCondition(doc, at, {
            attribute,
            operator: 'in',
            values: [definition.values![0], wrong],
          });
          expect(issuesOf(faulty)).toEqual([`${pathOf(at)}.values.1`]);
        },
      ),
      RUNS,
    );
  });

  /** A route other than the last (default), by `pick`. */
  const routeIndex = (doc: RoutingDocument, pick: number) => pick % (doc.routes.length - 1);

  it('a route naming an audience that is not defined', () => {
    fc.assert(
      fc.property(faultArgs, ([doc, , pick]) => {
        const index = routeIndex(doc, pick);
        const faulty = structuredClone(doc);
        fc.pre(!Object.hasOwn(doc.audiences, 'nobody'));
        faulty.routes[index]!.audience = 'nobody';
        expect(issuesOf(faulty)).toEqual([`routes.${index}.audience`]);
      }),
      RUNS,
    );
  });

  it('a route without an audience before the last', () => {
    fc.assert(
      fc.property(faultArgs, ([doc, , pick]) => {
        const index = routeIndex(doc, pick);
        const faulty = structuredClone(doc);
        delete faulty.routes[index]!.audience;
        expect(issuesOf(faulty)).toEqual([`routes.${index}.audience`]);
      }),
      RUNS,
    );
  });

  it('the default route anywhere but last', () => {
    fc.assert(
      fc.property(faultArgs, ([doc, , pick]) => {
        const index = routeIndex(doc, pick);
        const faulty = structuredClone(doc);
        const last = faulty.routes.length - 1;
        // The default route swaps places with another, which then ends the list.
        [faulty.routes[index], faulty.routes[last]] = [faulty.routes[last]!, faulty.routes[index]!];
        const issues = issuesOf(faulty);
        expect(issues).toContain(`routes.${index}.id`);
        expect(issues).toContain(`routes.${last}.id`);
        expect(
          issues.every(
            (path) => path.startsWith(`routes.${index}.`) || path.startsWith(`routes.${last}.`),
          ),
        ).toBe(true);
      }),
      RUNS,
    );
  });

  it('a route id used twice', () => {
    fc.assert(
      fc.property(faultArgs, ([doc, , pick]) => {
        const index = 1 + (pick % (doc.routes.length - 2));
        const faulty = structuredClone(doc);
        faulty.routes[index]!.id = faulty.routes[0]!.id;
        expect(issuesOf(faulty)).toEqual([`routes.${index}.id`]);
      }),
      RUNS,
    );
  });

  it('a plan that is not a main plan of the catalogue', () => {
    const others = (Object.keys(PLAN_FAMILIES) as string[]).filter(
      (family) => !(MAIN_FAMILIES as string[]).includes(family),
    );
    fc.assert(
      fc.property(
        faultArgs,
        fc.constantFrom(...others, 'free', 'Monthly'),
        ([doc, , pick], plan) => {
          const index = routeIndex(doc, pick);
          const faulty = structuredClone(doc);
          faulty.routes[index]!.plans = [MAIN_FAMILIES[0]!, plan];
          fc.pre(plan !== MAIN_FAMILIES[0]);
          expect(issuesOf(faulty)).toEqual([`routes.${index}.plans.1`]);
        },
      ),
      RUNS,
    );
  });

  it('a schedule whose start is not before its end', () => {
    fc.assert(
      fc.property(faultArgs, minute, minute, ([doc, , pick], a, b) => {
        const index = routeIndex(doc, pick);
        const faulty = structuredClone(doc);
        const [early, late] = a <= b ? [a, b] : [b, a];
        faulty.routes[index]!.schedule = { from: iso(late), until: iso(early) };
        expect(issuesOf(faulty)).toEqual([`routes.${index}.schedule.until`]);
      }),
      RUNS,
    );
  });

  it('a route whose flow does not exist, in the whole-document check', () => {
    fc.assert(
      fc.property(faultArgs, fc.constantFrom('nope', 'lp99', 'default2'), ([doc, , pick], flow) => {
        const index = pick % doc.routes.length;
        const routing = structuredClone(doc);
        routing.routes[index]!.flow = flow;
        const checked = checkFullDocument({
          split: DEFAULT_SPLIT,
          flows: DEFAULT_FLOWS,
          routing,
          experiments: DEFAULT_EXPERIMENTS,
          content: EMPTY_CONTENT,
        });
        expect(checked.ok ? [] : checked.errors.map((error) => error.path)).toEqual([
          `routing.routes.${index}.flow`,
        ]);
      }),
      { numRuns: 50 },
    );
  });
});
