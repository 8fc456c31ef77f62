import * as z from 'zod';
import { answerKeyOfName } from '../quiz/answers';
import {
  type AttributeDefinition,
  type AudienceAttribute,
  CLICK_ID_PARAMS,
  DEFAULT_ROUTE_ID,
  OPERATORS_BY_KIND,
  ROUTE_ATTRIBUTES,
  type RouteAttribute,
  type RouteOperator,
  SOURCES,
} from '../routing';
import { contentChoices } from './content';
import { countryCurrencies } from './currencies';
import { atMostEntries, flowName, instant, slug, version } from './fields';
import { offerTerms } from './offer-terms';
import { type ParseResult, parseJsonDocument } from './parse-document';
import { planLists } from './plan-lists';
import { ramp } from './ramp';

/**
 * The `routing` config section (KV key `routing`), declared once for the worker, the console and
 * the CLI: saved audiences and the ordered routes; what a route's audience may read about a
 * visitor is shared/routing.ts. Everything a route names is checked here or, for the flows and
 * the split, in worker/config/document.ts crossCheck; a fault names its path
 * (`routes.2.audience`).
 */

/** Like the other sections (shared/config/parse-document.ts CONFIG_MAX_BYTES). */
const ROUTING_MAX_BYTES = 64 * 1024;

const MAX_ROUTES = 100;
const MAX_AUDIENCES = 100;
const MAX_GROUPS = 20;
const MAX_CONDITIONS = 20;
/** Enough for every country of a continent in one condition. */
const MAX_VALUES = 300;
/** As long as a UTM value may be (worker/routing/first-touch.ts). */
const MAX_TEXT = 100;

/** Attribute names a marketer might try that must never route: that would be cloaking. */
const CLOAKING_ATTRIBUTES = new Set(['bot', 'is_bot', 'crawler', 'user_agent', 'reviewer']);

const conditionFields = z.strictObject({
  attribute: z.string(),
  operator: z.string(),
  values: z.array(z.union([z.string(), z.number()])).min(1, 'must list at least one value'),
});

/** A condition its checks passed: an attribute there is, with an operator its kind takes. */
type KnownCondition = z.output<typeof conditionFields> & {
  attribute: RouteAttribute;
  operator: RouteOperator;
};

/** An experiment's condition its checks passed: a route's, or one on a quiz answer. */
type KnownAudienceCondition = z.output<typeof conditionFields> & {
  attribute: AudienceAttribute;
  operator: RouteOperator;
};

/** How a condition on a quiz answer compares: the choice given is one of the values, or none. */
const ANSWER_OPERATORS: readonly string[] = ['in', 'not_in'];

type ConditionContext = z.core.$RefinementCtx<z.output<typeof conditionFields>>;

/**
 * A condition on a quiz answer (`answer:who in [child]`, shared/quiz/answers.ts answerKeyOfName):
 * the choice values of a question of that key, which worker/quiz/check.ts holds to the content.
 * Only an experiment's own audience may read one: a route is chosen on the visit's first page,
 * before any question is answered, and a saved audience is a route's too.
 */
function checkAnswerCondition(
  raw: z.output<typeof conditionFields>,
  ctx: ConditionContext,
  answers: boolean,
): void {
  if (!answers) {
    ctx.addIssue({
      code: 'custom',
      path: ['attribute'],
      message:
        "a route is chosen on the visit's first page, before any question is answered: a condition on an answer belongs in an experiment's own audience",
    });
    return;
  }
  if (!ANSWER_OPERATORS.includes(raw.operator)) {
    ctx.addIssue({
      code: 'custom',
      path: ['operator'],
      message: `"${raw.operator}" does not apply to an answer (use ${ANSWER_OPERATORS.join(', ')})`,
    });
  }
  raw.values.forEach((value, index) => {
    if (typeof value !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,31}$/.test(value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['values', index],
        message: 'must be a choice\'s value such as "child"',
      });
    }
  });
  if (new Set(raw.values).size !== raw.values.length) {
    ctx.addIssue({ code: 'custom', path: ['values'], message: 'must not list a value twice' });
  }
}

/** A condition on one of the attributes a route reads (ROUTE_ATTRIBUTES). */
function checkRouteCondition(raw: z.output<typeof conditionFields>, ctx: ConditionContext): void {
  if (!Object.hasOwn(ROUTE_ATTRIBUTES, raw.attribute)) {
    ctx.addIssue({
      code: 'custom',
      path: ['attribute'],
      message: `unknown attribute "${raw.attribute}"`,
    });
    return;
  }
  const definition: AttributeDefinition = ROUTE_ATTRIBUTES[raw.attribute as RouteAttribute];
  const operators: readonly string[] = OPERATORS_BY_KIND[definition.kind];
  if (!operators.includes(raw.operator)) {
    ctx.addIssue({
      code: 'custom',
      path: ['operator'],
      message: `"${raw.operator}" does not apply to ${raw.attribute} (use ${operators.join(', ')})`,
    });
  }
  if (raw.values.length > MAX_VALUES) {
    ctx.addIssue({
      code: 'custom',
      path: ['values'],
      message: `must list at most ${MAX_VALUES} values`,
    });
  }
  raw.values.forEach((value, index) => {
    const problem = valueProblem(definition, value);
    if (problem) ctx.addIssue({ code: 'custom', path: ['values', index], message: problem });
  });
  if (new Set(raw.values).size !== raw.values.length) {
    ctx.addIssue({ code: 'custom', path: ['values'], message: 'must not list a value twice' });
  }
}

/** Whether the checks above passed: an attribute there is, with an operator it takes. */
function isKnown(raw: z.output<typeof conditionFields>, answers: boolean): boolean {
  if (answers && answerKeyOfName(raw.attribute) !== null) {
    return ANSWER_OPERATORS.includes(raw.operator);
  }
  return (
    Object.hasOwn(ROUTE_ATTRIBUTES, raw.attribute) &&
    (
      OPERATORS_BY_KIND[ROUTE_ATTRIBUTES[raw.attribute as RouteAttribute].kind] as readonly string[]
    ).includes(raw.operator)
  );
}

/** One test of one attribute, `answers` allowing a quiz answer's (an experiment's own audience). */
function conditionOf(answers: boolean) {
  return conditionFields.superRefine((raw, ctx) => {
    if (CLOAKING_ATTRIBUTES.has(raw.attribute)) {
      ctx.addIssue({
        code: 'custom',
        path: ['attribute'],
        message:
          'a route may not depend on whether the visitor is a bot: showing ad reviewers other pages than visitors is cloaking, which the ad networks ban',
      });
      return;
    }
    if (answerKeyOfName(raw.attribute) !== null) checkAnswerCondition(raw, ctx, answers);
    else checkRouteCondition(raw, ctx);
  });
}

/** One test of one attribute: `country in [DE, AT, CH]`, `utm_campaign contains "bf"`. */
export const condition = conditionOf(false)
  // Types the attribute and the operator (what the checks above proved). It runs only where they
  // found nothing, so it never adds a fault of its own.
  .refine((raw): raw is KnownCondition => isKnown(raw, false), {
    when: (payload) => payload.issues.length === 0,
  });

/**
 * A condition of an experiment's own audience: a route's, or one on the visitor's quiz answer,
 * read on each page as the visitor answers (`answer:who in [child]`).
 */
export const audienceCondition = conditionOf(true).refine(
  (raw): raw is KnownAudienceCondition => isKnown(raw, true),
  { when: (payload) => payload.issues.length === 0 },
);

function valueProblem(definition: AttributeDefinition, value: string | number): string | null {
  if (definition.kind === 'text') {
    if (typeof value !== 'string') return 'must be text';
    if (value.trim() === '' || value.trim() !== value) return 'must be text without outer spaces';
    return value.length > MAX_TEXT ? `must be at most ${MAX_TEXT} characters` : null;
  }
  const allowed = definition.values ?? [];
  if (definition.kind === 'number' && typeof value !== 'number') return 'must be a number';
  if (definition.kind === 'list' && typeof value !== 'string') return 'must be text';
  if (allowed.includes(value)) return null;
  const problem = `"${value}" is not one of the ${definition.label} values`;
  // The click id's parameter where its network belongs: say which network that is.
  const network = Object.entries(CLICK_ID_PARAMS).find(([, params]) =>
    (params as readonly string[]).includes(String(value).toLowerCase()),
  )?.[0];
  return definition === ROUTE_ATTRIBUTES.click_id && network
    ? `${problem}: name the network, ${network} for ${value}`
    : problem;
}

/** A saved, named audience: any of its groups, each group all of its conditions. */
const audience = z.strictObject({
  /** What the marketer calls it in the console. */
  label: z.string().min(1).max(80).optional(),
  groups: z
    .array(
      z
        .array(condition)
        .min(1, 'a group must hold at least one condition')
        .max(MAX_CONDITIONS, `a group holds at most ${MAX_CONDITIONS} conditions`),
    )
    .min(1, 'must hold at least one group')
    .max(MAX_GROUPS, `must hold at most ${MAX_GROUPS} groups`),
});

/** When a route takes visitors: ISO 8601 UTC instants, either end open. */
const schedule = z
  .strictObject({ from: instant.optional(), until: instant.optional() })
  .refine(
    (s) =>
      s.from === undefined || s.until === undefined || Date.parse(s.from) < Date.parse(s.until),
    { message: '"from" must come before "until"', path: ['until'] },
  );

const route = z.strictObject({
  /** Lower case; carried by events and exposures as `route`. */
  id: slug,
  /** The saved audience it takes; none only on the last route, `default`. */
  audience: slug.optional(),
  /** The flow its visitors walk (unless the split test applies to the route). */
  flow: flowName,
  /** Plan families its paywall, checkout, upsell and guide screens offer, the first preselected. */
  ...planLists,
  /** `false`: no struck prices or savings; no offer countdown (shared/config/offer-terms.ts). */
  ...offerTerms,
  /** The content variant its screens show (a content test shipped to the route), by screen. */
  content: contentChoices.optional(),
  /** The currency its visitors pay in, by country, on top of the document's `currencies`. */
  currencies: countryCurrencies.optional(),
  /** A paused route takes no new visitor; those already on it stay. */
  paused: z.boolean().optional(),
  schedule: schedule.optional(),
  /**
   * ISO instant the route was first published; set by each publish, never typed
   * (worker/experiments/holdout/holdout-issues.ts). Absent: from before the holdout existed.
   */
  since: instant.optional(),
  /**
   * A new route on a guarded ramp (docs/routes.md, "A new route on a ramp"; shared/config/ramp.ts):
   * at each step it takes that share of the visitors it matches, an equal band stays on the
   * route they would have got without it, both counted and compared until the last step.
   */
  ramp: ramp.optional(),
});

const routingSchema = z
  .strictObject({
    version,
    /** `utm_source` spellings and the source each means, lower case; absent: the built-in map. */
    aliases: atMostEntries(
      z.record(
        z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a lower-case utm_source value'),
        z.enum(SOURCES),
      ),
      200,
      'aliases',
    ).optional(),
    /**
     * Who pays in what, by country, on top of the built-in table (GB in GBP, the euro area in
     * EUR, ...: shared/plans/currency.ts); absent: the built-in table alone.
     */
    currencies: countryCurrencies.optional(),
    audiences: atMostEntries(z.record(slug, audience), MAX_AUDIENCES, 'audiences'),
    /** In order; the first live route whose audience matches wins; `default` is last. */
    routes: z
      .array(route)
      .min(1, `must end with the "${DEFAULT_ROUTE_ID}" route`)
      .max(MAX_ROUTES, `must list at most ${MAX_ROUTES} routes`),
  })
  .superRefine((routing, ctx) => {
    const seen = new Set<string>();
    routing.routes.forEach((route, index) => {
      const last = index === routing.routes.length - 1;
      if (seen.has(route.id)) {
        ctx.addIssue({ code: 'custom', path: ['routes', index, 'id'], message: 'is used twice' });
      }
      seen.add(route.id);
      if (route.audience !== undefined && !Object.hasOwn(routing.audiences, route.audience)) {
        ctx.addIssue({
          code: 'custom',
          path: ['routes', index, 'audience'],
          message: `names audience "${route.audience}", which is not defined`,
        });
      }
      if (last) {
        if (route.id !== DEFAULT_ROUTE_ID) {
          ctx.addIssue({
            code: 'custom',
            path: ['routes', index, 'id'],
            message: `the last route must be "${DEFAULT_ROUTE_ID}", which takes everyone else`,
          });
        }
        for (const field of ['audience', 'paused', 'schedule', 'ramp'] as const) {
          if (route[field] !== undefined) {
            ctx.addIssue({
              code: 'custom',
              path: ['routes', index, field],
              message: `the "${DEFAULT_ROUTE_ID}" route takes everyone else, always: it has no ${field}`,
            });
          }
        }
      } else if (route.id === DEFAULT_ROUTE_ID) {
        ctx.addIssue({
          code: 'custom',
          path: ['routes', index, 'id'],
          message: `"${DEFAULT_ROUTE_ID}" must be the last route`,
        });
      } else if (route.audience === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['routes', index, 'audience'],
          message: 'is missing: only the last route takes everyone',
        });
      }
    });
  });

export type Condition = z.output<typeof condition>;
export type AudienceCondition = z.output<typeof audienceCondition>;
export type AudienceDocument = z.output<typeof audience>;

export type RouteSchedule = z.output<typeof schedule>;
export type RouteDocument = z.output<typeof route>;
/** The third config section: who gets which funnel. */
export type RoutingDocument = z.output<typeof routingSchema>;

export function parseRouting(raw: unknown): ParseResult<RoutingDocument> {
  return parseJsonDocument(routingSchema, raw, ROUTING_MAX_BYTES);
}
