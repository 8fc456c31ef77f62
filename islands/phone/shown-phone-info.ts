import * as z from 'zod/mini';
import type { PhoneInfo } from '../../shared/api/contract';

/**
 * A number's data as the searching screens may show it: the answer of the lookup, and what
 * $map.numberData kept of it across a reload (an older format, or edited by hand). The contract's
 * PhoneInfo in zod/mini, typed against it so that a field the contract adds fails to compile
 * here: the contract itself would take full zod into the browser.
 */
export const ShownPhoneInfo: z.ZodMiniType<PhoneInfo> = z.object({
  phone: z.string(),
  valid: z.boolean(),
  country: z.nullable(z.string()),
  type: z.nullable(z.string()),
  carrier: z.nullable(z.string()),
  city: z.nullable(z.string()),
  timezone: z.nullable(z.string()),
  location: z.nullable(z.object({ lat: z.number(), lng: z.number() })),
});
