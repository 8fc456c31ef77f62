import * as z from 'zod';

/**
 * What a route or an experiment's variant says of how its offer is presented (docs/marketers.md,
 * "Struck prices and the countdown"): `anchors: false` shows no struck price and no "Save N%";
 * `countdown: false` shows no offer countdown, so the offer never ends. Absent: on. Only `false`
 * says anything, so a change that sets nothing changes nothing.
 */
export const offerTerms = {
  anchors: z.literal(false, 'may only be false: struck prices are on unless turned off').optional(),
  countdown: z
    .literal(false, 'may only be false: the countdown is on unless turned off')
    .optional(),
};

/** The flags a funnel carries, from its route and then its variants. */
export interface OfferTerms {
  anchors?: false;
  countdown?: false;
}
