import { IN_APP_NAMES, type InAppApp } from '../../shared/in-app-browser';
import { PLAN_FAMILIES, type PlanFamilyId, type PlanRole } from '../../shared/plans/catalogue';
import {
  type AttributeDefinition,
  OPERATORS_BY_KIND,
  ROUTE_ATTRIBUTES,
  type RouteAttribute,
  type RouteOperator,
} from '../../shared/routing';

/**
 * What the traffic editor offers in its pickers, from the fixed lists of shared/routing.ts: a
 * rule can then only name what a visitor can have (the worker's validator checks it again).
 */

export interface Choice {
  value: string | number;
  label: string;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** "Germany (DE)": the name to find it by, the code a rule holds. */
export function countryLabel(code: string): string {
  let name = code;
  try {
    name = regionNames.of(code) ?? code;
  } catch {
    // A code this browser has no name for: the code alone.
  }
  return name === code ? code : `${name} (${code})`;
}

/** Each network with the link parameters that carry its click id (worker/routing/first-touch.ts). */
const CLICK_ID_LABELS: Readonly<Record<string, string>> = {
  meta: 'Meta (fbclid)',
  tiktok: 'TikTok (ttclid)',
  google: 'Google (gclid, gbraid, wbraid)',
  none: 'None (no click id in the link)',
};

export function definitionOf(attribute: RouteAttribute): AttributeDefinition {
  return ROUTE_ATTRIBUTES[attribute];
}

/** Built once per attribute: the lists are fixed, and naming 250 regions is not free. */
const choicesByAttribute = new Map<RouteAttribute, readonly Choice[]>();

/** The values a list or number attribute may name, each with what the picker shows. */
export function valueChoices(attribute: RouteAttribute): readonly Choice[] {
  let choices = choicesByAttribute.get(attribute);
  if (!choices) {
    choices = buildChoices(attribute);
    choicesByAttribute.set(attribute, choices);
  }
  return choices;
}

function buildChoices(attribute: RouteAttribute): Choice[] {
  const values = definitionOf(attribute).values ?? [];
  switch (attribute) {
    case 'country':
      return values
        .map((code) => ({ value: code, label: countryLabel(String(code)) }))
        .sort((a, b) => a.label.localeCompare(b.label, 'en'));
    case 'language':
      return values.map((code) => ({
        value: code,
        label: `${languageNames.of(String(code)) ?? code} (${code})`,
      }));
    case 'in_app':
      return values.map((app) => ({
        value: app,
        label: app === 'none' ? 'None (a normal browser)' : IN_APP_NAMES[app as InAppApp],
      }));
    case 'click_id':
      return values.map((network) => ({
        value: network,
        label: CLICK_ID_LABELS[String(network)] ?? String(network),
      }));
    case 'hour':
      return values.map((hour) => ({ value: hour, label: `${hour}:00–${hour}:59` }));
    default:
      return values.map((value) => ({ value, label: String(value) }));
  }
}

const OPERATOR_LABELS: Record<RouteOperator, string> = {
  in: 'is one of',
  not_in: 'is none of',
  equals: 'is',
  contains: 'contains',
  starts_with: 'starts with',
};

export function operatorChoices(
  attribute: RouteAttribute,
): { value: RouteOperator; label: string }[] {
  return OPERATORS_BY_KIND[definitionOf(attribute).kind].map((operator) => ({
    value: operator,
    label: OPERATOR_LABELS[operator],
  }));
}

/**
 * The plan families a route or a variant may offer in each list, from the catalogue's families of
 * that role (shared/config/plan-lists.ts): the main plans, the upsell tiers, the guides.
 */
export const PLANS_OF_ROLE: Record<PlanRole, readonly PlanFamilyId[]> = {
  main: familiesOf('main'),
  upsell: familiesOf('upsell'),
  guide: familiesOf('guide'),
};

function familiesOf(role: PlanRole): PlanFamilyId[] {
  return (Object.keys(PLAN_FAMILIES) as PlanFamilyId[]).filter(
    (family) => PLAN_FAMILIES[family].role === role,
  );
}
