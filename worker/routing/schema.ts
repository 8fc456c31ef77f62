import * as z from 'zod';
import {
  type AttributeDefinition,
  DEFAULT_ROUTE_ID,
  OPERATORS_BY_KIND,
  ROUTE_ATTRIBUTES,
  type RouteAttribute,
  type RoutingDocument,
  SOURCES,
} from '../../shared/routing';
import { type ParseResult, parseJsonDocument } from '../parse-json-document';
import { CLICK_ID_PARAMS } from './first-touch';
import { planLists } from './plan-schema';

/**
 * The `routing` config section (shared/routing.ts RoutingDocument): saved audiences and the
 * ordered routes. Everything a route names is checked here or, for the flows and the split,
 * in worker/config/document.ts crossCheck; a fault names its path (`routes.2.audience`).
 */

/** Like the other sections (worker/config/schema.ts CONFIG_MAX_BYTES). */
const ROUTING_MAX_BYTES = 64 * 1024;

const MAX_ROUTES = 100;
const MAX_AUDIENCES = 100;
const MAX_GROUPS = 20;
const MAX_CONDITIONS = 20;
/** Enough for every country of a continent in one condition. */
const MAX_VALUES = 300;
/** As long as a UTM value may be (worker/routing/first-touch.ts). */
const MAX_TEXT = 100;

export const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'must be lower-case letters, digits, - or _ (at most 48)');

const version = z
  .union([z.string().min(1).max(64), z.number().int().nonnegative()])
  .transform(String);

/** Attribute names a marketer might try that must never route: that would be cloaking. */
const CLOAKING_ATTRIBUTES = new Set(['bot', 'is_bot', 'crawler', 'user_agent', 'reviewer']);

export const condition = z
  .strictObject({
    attribute: z.string(),
    operator: z.string(),
    values: z.array(z.union([z.string(), z.number()])).min(1, 'must list at least one value'),
  })
  .superRefine((raw, ctx) => {
    if (CLOAKING_ATTRIBUTES.has(raw.attribute)) {
      ctx.addIssue({
        code: 'custom',
        path: ['attribute'],
        message:
          'a route may not depend on whether the visitor is a bot: showing ad reviewers other pages than visitors is cloaking, which the ad networks ban',
      });
      return;
    }
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
  });

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

const audience = z.strictObject({
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

export const instant = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/,
    'must be a UTC time like 2026-11-27T00:00Z',
  )
  .refine((text) => !Number.isNaN(Date.parse(text)), 'is not a real date');

const schedule = z
  .strictObject({ from: instant.optional(), until: instant.optional() })
  .refine(
    (s) =>
      s.from === undefined || s.until === undefined || Date.parse(s.from) < Date.parse(s.until),
    { message: '"from" must come before "until"', path: ['until'] },
  );

const route = z.strictObject({
  id: slug,
  audience: slug.optional(),
  flow: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lower-case flow name'),
  ...planLists,
  paused: z.boolean().optional(),
  schedule: schedule.optional(),
});

const routingSchema = z
  .strictObject({
    version,
    aliases: z
      .record(
        z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a lower-case utm_source value'),
        z.enum(SOURCES),
      )
      .refine((aliases) => Object.keys(aliases).length <= 200, 'must list at most 200 aliases')
      .optional(),
    audiences: z
      .record(slug, audience)
      .refine(
        (audiences) => Object.keys(audiences).length <= MAX_AUDIENCES,
        `must list at most ${MAX_AUDIENCES} audiences`,
      ),
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
        for (const field of ['audience', 'paused', 'schedule'] as const) {
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

export type RoutingConfig = RoutingDocument;

export function parseRouting(raw: unknown): ParseResult<RoutingConfig> {
  return parseJsonDocument(
    routingSchema as unknown as z.ZodType<RoutingConfig>,
    raw,
    ROUTING_MAX_BYTES,
  );
}
