import type { SplitDocument } from '../../shared/config/split';

/**
 * The naming rules of the config document, as shared/config/split.ts and flows.ts check them.
 * The console checks a new key or flow name here only to answer at once; the worker's validator
 * decides.
 */

/** A variant key: `type` or `type/subtype`. */
const VARIANT_KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)?$/;

/** A flow name. */
const FLOW_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * The flow a variant walks: its `flow`, else its key with '/' read as '_' (lp11ch8/vc →
 * lp11ch8_vc), as worker/funnel/flow.ts resolves it.
 */
export function flowNameOf(split: SplitDocument, key: string): string {
  return split.variants[key]?.flow ?? key.replace('/', '_');
}

/** Why a key typed for a new variant cannot be added, or null when it can. */
export function variantKeyProblem(key: string, split: SplitDocument): string | null {
  if (key === '') return 'Enter a key for the variant.';
  if (!VARIANT_KEY.test(key)) {
    return 'Use lower-case letters, digits, "-" and "_", as "type" or "type/subtype" (for example lp18 or lp18/b).';
  }
  if (Object.hasOwn(split.variants, key)) return `${key} is a variant already.`;
  return null;
}

/** Why a name typed for a new flow cannot be added, or null when it can. */
export function flowNameProblem(name: string, flows: Record<string, string[]>): string | null {
  if (name === '') return 'Enter a name for the flow.';
  if (!FLOW_NAME.test(name)) {
    return 'Use lower-case letters, digits, "-" and "_" (for example lp18_checkout).';
  }
  if (Object.hasOwn(flows, name)) return `A flow named ${name} exists already.`;
  return null;
}
