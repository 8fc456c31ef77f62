import type { Context } from 'hono';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import {
  ACCOUNT_PINS_COOKIE,
  accountSubject,
  PINS_COOKIE,
  serializePins,
} from '../experiments/assignment/pins';
import type { ExperimentAssignment, VisitorAccount } from '../experiments/config/evaluate';
import type { RootEnv } from './envs';
import { writeSignedCookie } from './signed-cookies';
import { VISITOR_COOKIE_MAX_AGE } from './visitor-cookie';

/**
 * The split experiment's pin, as it was before there were others (SPEC.md §4's stored variant),
 * signed like `gf_x`.
 */
export const VARIANT_COOKIE = 'gf_variant';

const cookieOptions = {
  maxAge: VISITOR_COOKIE_MAX_AGE,
  path: '/',
  secure: true,
  sameSite: 'Lax',
} as const;

/**
 * Pins the visitor to the variants of the experiments they were just exposed to, beside the
 * ones they hold: `gf_x`, and `gf_variant` for the split, which a visitor of before holds, both
 * signed for the visitor id (worker/request/signed-cookies.ts), which must be set; and, for
 * the arms drawn by the account (a layer with a price test), `gf_ax`, signed for the account.
 */
export async function writePins<E extends RootEnv>(
  c: Context<E>,
  held: ReadonlyMap<string, string>,
  exposed: readonly Pick<ExperimentAssignment, 'experiment' | 'variant' | 'byAccount'>[],
  account: VisitorAccount | null = null,
): Promise<void> {
  const pins = new Map(held);
  const accountPins = new Map(account?.pins);
  let split: string | undefined;
  let toAccount = false;
  for (const { experiment, variant, byAccount } of exposed) {
    if (byAccount && account !== null) {
      accountPins.set(experiment, variant);
      toAccount = true;
    } else if (experiment === SPLIT_EXPERIMENT_ID) split = variant;
    else pins.set(experiment, variant);
  }
  pins.delete(SPLIT_EXPERIMENT_ID);
  await Promise.all([
    split === undefined ? undefined : writeSignedCookie(c, VARIANT_COOKIE, split, cookieOptions),
    pins.size === 0
      ? undefined
      : writeSignedCookie(c, PINS_COOKIE, serializePins(pins), cookieOptions),
    toAccount && account !== null
      ? writeSignedCookie(
          c,
          ACCOUNT_PINS_COOKIE,
          serializePins(accountPins),
          cookieOptions,
          accountSubject(account.id),
        )
      : undefined,
  ]);
}
