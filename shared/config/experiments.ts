import * as z from 'zod';
import {
  DECISION_ACTIONS,
  DECISION_RESULTS,
  EXPERIMENT_METRICS,
  EXPERIMENT_STATUSES,
  LAYERS,
  SLOTS,
} from '../experiments';
import { contentChoices, contentVariantName } from './content';
import { countryCurrencies } from './currencies';
import { atMostEntries, flowName, instant, screenRef, slug, version } from './fields';
import { holdoutSchema } from './holdout';
import { offerTerms } from './offer-terms';
import { type ParseResult, parseJsonDocument } from './parse-document';
import { planLists } from './plan-lists';
import { ramp, rampedExperimentIssues } from './ramp';
import { audienceCondition } from './routing';

/**
 * The `experiments` config section (KV key `experiments`), declared once for the worker, the
 * console and the CLI; what its names mean (layers, slots, metrics) is shared/experiments.ts.
 * Every field of every experiment on its own: what an experiment names elsewhere (flows, routes,
 * audiences), the triggers, the layers' overlaps and what a running experiment may change are
 * the validator's (worker/experiments/config/validate.ts), which sees the whole config.
 */

/** Like the other sections (shared/config/parse-document.ts CONFIG_MAX_BYTES). */
const EXPERIMENTS_MAX_BYTES = 64 * 1024;

/** Experiments kept in the document, archived ones included; archive and delete old ones. */
const MAX_EXPERIMENTS = 50;

const variantKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)?$/, 'must be "type" or "type/subtype"')
  .max(48, 'must be at most 48 characters');

const seed = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9:_-]{0,63}$/, 'must be letters, digits, :, - or _ (at most 64)');

/** What a variant changes, on top of the visitor's route; the control changes nothing. */
const change = z.strictObject({
  /** Another named flow: a whole-funnel test. */
  flow: flowName.optional(),
  /**
   * A screen swapped in at a slot, e.g. `{ "landing": "one_pager_ai" }`: one in code, or one the
   * content composes (`spring_landing`).
   */
  screens: z.partialRecord(z.enum(SLOTS), screenRef).optional(),
  /**
   * A content variant shown on a screen (shared/config/content.ts), e.g.
   * `{ "one_pager": "testimonials_first" }`: a headline, picture or section-order test.
   */
  content: contentChoices.optional(),
  /**
   * A variant of the save offer the subscriber's page shows before a cancel (shared/config/
   * content.ts `saveOffer.variants`), e.g. `"half_price"`: a save offer test, in layer
   * `subscriber` (docs/experiments.md, "Testing the save offer").
   */
  saveOffer: contentVariantName.optional(),
  /**
   * The catalogue's plan families the paywall and checkout (`plans`), the upsell (`upsellPlans`)
   * and the guide (`guidePlans`) offer, the first preselected. The charge is by plan id, so the
   * page and the charge always agree; plans whose prices differ make a price test.
   */
  ...planLists,
  /**
   * The currency visitors of a country pay in, on top of their route's table, e.g.
   * `{ "GB": "USD" }` against a control in GBP: a country price test.
   */
  currencies: countryCurrencies.optional(),
  /**
   * `anchors: false` tests the prices without struck prices and savings; `countdown: false`
   * without the offer countdown (shared/config/offer-terms.ts).
   */
  ...offerTerms,
});

const variant = z.strictObject({
  /** What the marketer calls it. */
  name: z.string().min(1).max(80).optional(),
  /** A share of the total; 0 pauses the variant (no new visitor gets it). */
  weight: z.number().finite('must be a finite number').nonnegative('must not be negative'),
  change,
});

const share = z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1');

/** What the decision was made on, as the results showed it then. */
const evidence = z.strictObject({
  phase: z.number().int().positive(),
  metric: z.enum(EXPERIMENT_METRICS),
  relativeLift: z.number().finite().nullable(),
  interval: z.tuple([z.number(), z.number()]).nullable(),
  verdict: z.string().max(40).nullable(),
  srmAlarm: z.boolean(),
});

const decision = z.strictObject({
  result: z.enum(DECISION_RESULTS),
  action: z.enum(DECISION_ACTIONS),
  /** The variant rolled out or made the route's default; absent for keep_control. */
  variant: variantKey.optional(),
  /** Required when the variant did not win or the SRM alarm was on. */
  reason: z.string().min(1).max(500).optional(),
  /** ISO instant and who. */
  at: instant,
  by: z.string().min(1).max(200),
  evidence,
  /**
   * A roll-out in steps (docs/experiments.md, "A ramped roll-out"): the variant reaches each
   * step's share of the audience, an equal band keeps the control, both counted in a phase of
   * their own, until the last step ships it to everyone. `roll_out` only.
   */
  ramp: ramp.optional(),
});

const experiment = z
  .strictObject({
    // Blank is refused as the console's forms refuse it: a name says which experiment it is.
    name: z
      .string()
      .max(120)
      .refine((name) => name.trim() !== '', 'must not be empty'),
    hypothesis: z.string().max(1000).optional(),
    status: z.enum(EXPERIMENT_STATUSES),
    layer: z.enum(LAYERS),
    /** The share of the layer's buckets it may use, [from, to) in 0–1; absent: all of them. */
    range: z
      .tuple([share, share])
      .refine(([from, to]) => from < to, 'must run from a smaller share to a larger one')
      .optional(),
    /**
     * Who may enter: every part given must match (a route named, the saved audience, the groups).
     */
    audience: z.strictObject({
      /** The routes whose visitors it takes (shared/config/routing.ts); absent: every route. */
      routes: z
        .array(slug)
        .min(1, 'must name at least one route')
        .max(100)
        .refine((ids) => new Set(ids).size === ids.length, 'must not name a route twice')
        .optional(),
      /** A saved audience of the routing section. */
      audience: slug.optional(),
      /**
       * Conditions of its own: any group, each group all of its conditions; a condition may read
       * a quiz answer (`answer:who`), which a route's may not.
       */
      groups: z.array(z.array(audienceCondition).min(1).max(20)).min(1).max(20).optional(),
    }),
    /** The share of the matching visitors in its range who enter, 0–1. */
    coverage: z.number().gt(0, 'must be above 0').max(1, 'must be at most 1'),
    /** Hashed with the visitor id to pick the variant; fixed for the experiment's life. */
    seed,
    /**
     * Stamped by each publish (worker/experiments/config/phases.ts): the phase its weights belong
     * to.
     */
    phase: z.number().int().positive().optional(),
    control: variantKey,
    variants: atMostEntries(
      z
        .record(variantKey, variant)
        .refine((v) => Object.keys(v).length >= 2, 'must list at least 2 variants'),
      5,
      'variants',
    ),
    metrics: z
      .strictObject({
        primary: z.enum(EXPERIMENT_METRICS).optional(),
        /** The visitors per variant expected at decision time. */
        plannedPerArm: z.number().int().min(100).max(100_000_000).optional(),
      })
      .optional(),
    /** ISO instants: when it started running, and when it was stopped or shipped. */
    startedAt: instant.optional(),
    endedAt: instant.optional(),
    /** Days the visitors already exposed keep their variant once it ends; 7 unless said. */
    drainDays: z.number().int().min(0).max(90).optional(),
    notes: z.string().max(2000).optional(),
    decision: decision.optional(),
    /** A guarded ramp (shared/config/ramp.ts): steps of coverage, guardrails, where it stands. */
    ramp: ramp.optional(),
  })
  .superRefine((exp, ctx) => {
    if (exp.ramp !== undefined)
      for (const issue of rampedExperimentIssues(exp)) ctx.addIssue({ code: 'custom', ...issue });
    if (exp.decision?.ramp !== undefined && exp.decision.action !== 'roll_out')
      ctx.addIssue({
        code: 'custom',
        path: ['decision', 'ramp'],
        message: `ramps a roll-out only: ${exp.decision.action} ships nothing in steps`,
      });
    if (!Object.hasOwn(exp.variants, exp.control)) {
      ctx.addIssue({
        code: 'custom',
        path: ['control'],
        message: `"${exp.control}" is not one of the variants`,
      });
      return;
    }
    const control = exp.variants[exp.control]!;
    if (Object.keys(control.change).length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['variants', exp.control, 'change'],
        message: 'the control changes nothing: it is the route as it is',
      });
    }
    const total = Object.values(exp.variants).reduce((sum, v) => sum + v.weight, 0);
    if (!(total > 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['variants'],
        message: 'weights must add up to more than 0',
      });
      return;
    }
    for (const [key, v] of Object.entries(exp.variants)) {
      if (v.weight > 0 && v.weight / total < 0.01) {
        ctx.addIssue({
          code: 'custom',
          path: ['variants', key, 'weight'],
          message: 'a variant drawn gets at least 1% of the total (or 0 to pause it)',
        });
      }
    }
    if (exp.decision?.variant !== undefined && !Object.hasOwn(exp.variants, exp.decision.variant)) {
      ctx.addIssue({
        code: 'custom',
        path: ['decision', 'variant'],
        message: `"${exp.decision.variant}" is not one of the variants`,
      });
    }
  });

const experimentsSchema = z.strictObject({
  version,
  /** Each layer's seed; absent, the layer's name. */
  layers: z.partialRecord(z.enum(LAYERS), z.strictObject({ seed })).optional(),
  experiments: atMostEntries(z.record(slug, experiment), MAX_EXPERIMENTS, 'experiments'),
  /** Visitors kept on the controls of the experiments started since (./holdout.ts). */
  holdout: holdoutSchema.optional(),
  /** A Slack-compatible webhook the alerts go to. */
  alerts: z
    .strictObject({
      // Which addresses may take the alerts depends on where the worker runs: the validator's
      // (validate.ts, worker/http/webhook-address.ts). Here, only that it is a web address.
      webhook: z
        .url({ protocol: /^https?$/, error: 'must be an https:// address' })
        .max(500)
        .optional(),
    })
    .optional(),
});

export type VariantChange = z.output<typeof change>;
export type ExperimentVariantDocument = z.output<typeof variant>;
export type DecisionEvidence = z.output<typeof evidence>;
export type ExperimentDecision = z.output<typeof decision>;
export type ExperimentDocument = z.output<typeof experiment>;
export type ExperimentAudience = ExperimentDocument['audience'];
/** The `experiments` config section. */
export type ExperimentsDocument = z.output<typeof experimentsSchema>;

export function parseExperiments(raw: unknown): ParseResult<ExperimentsDocument> {
  return parseJsonDocument(experimentsSchema, raw, EXPERIMENTS_MAX_BYTES);
}
