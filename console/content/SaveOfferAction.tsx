import { useEffect, useState } from 'react';
import type { ContentDocument, SaveOfferAction } from '../../shared/config/content';
import type { FieldError } from '../../shared/console-api/errors';
import {
  PLAN_FAMILIES,
  PLAN_FAMILY_IDS,
  type PlanFamilyId,
  planOf,
} from '../../shared/plans/catalogue';
import { planText } from '../kit/plan-text';
import { editContent } from '../kit/stores/draft';
import { typedNumber } from '../kit/WeightInput';
import { CheckedField } from './CheckedField';
import { type OfferVersion, offerActionOf, withOfferAction } from './save-offer-edits';

/**
 * What a save offer does with one tap besides its words (docs/marketers.md, "The save offer
 * before a cancel"): nothing, a discount on the next renewals, a pause, or a switch to a cheaper
 * plan, which the product API carries out. A variant may do what the offer does, or its own.
 * The number fields keep what is typed and the draft gets it as a number, NaN where it is none,
 * so the check refuses it beside its field rather than the form quietly mending it.
 */

type ActionKind = SaveOfferAction['kind'];

/** The select's choices: `same` only for a variant (the key left out), `words` for null. */
type ActionChoice = 'same' | 'words' | ActionKind;

const CHOICE_WORDS: Record<Exclude<ActionChoice, 'same'>, string> = {
  words: 'Words only',
  discount: 'Discount on the next renewals',
  pause: 'Pause',
  switch: 'Switch to a cheaper plan',
};

/**
 * The families a switch may name: only a renewing plan, since the subscription it moves renews;
 * a one-time guide has nothing to renew at.
 */
const SWITCH_FAMILIES: readonly PlanFamilyId[] = PLAN_FAMILY_IDS.filter(
  (family) => PLAN_FAMILIES[family].billing.kind === 'recurring',
);

/** The cheapest renewing plan: the likeliest one to switch a leaving subscriber to. */
const CHEAPEST = SWITCH_FAMILIES.reduce((cheapest, family) =>
  planOf(family, 'USD').price < planOf(cheapest, 'USD').price ? family : cheapest,
);

/** What a kind starts as once chosen, for the marketer to change. */
const FIRST_ACTION: Record<ActionKind, SaveOfferAction> = {
  discount: { kind: 'discount', percentOff: 20, renewals: 3 },
  pause: { kind: 'pause', months: 1 },
  switch: { kind: 'switch', family: CHEAPEST },
};

/** An action in a few words, for a variant's "Same as the offer (…)". */
function offerActionText(action: SaveOfferAction | null): string {
  if (action === null) return 'words only';
  switch (action.kind) {
    case 'discount':
      return `${action.percentOff}% off the next ${action.renewals === 1 ? 'renewal' : `${action.renewals} renewals`}`;
    case 'pause':
      return `a pause of ${action.months === 1 ? '1 month' : `${action.months} months`}`;
    case 'switch':
      return `a switch to ${action.family}`;
  }
}

/** A number as its field shows it; none (NaN, or null from a draft read back) as empty. */
const shown = (number: unknown) =>
  typeof number === 'number' && Number.isFinite(number) ? String(number) : '';

/** A whole number within bounds, as typed; the draft gets it as a number (NaN for none). */
function ActionNumber(props: {
  id: string;
  label: string;
  value: number;
  min: number;
  max: number;
  problem: string | undefined;
  onChange(value: number): void;
}) {
  const { id, value } = props;
  const [text, setText] = useState(() => shown(value));
  // A value changed elsewhere (undone, another kind chosen) shows in the field.
  useEffect(() => {
    setText((typed) => (Object.is(typedNumber(typed), value) ? typed : shown(value)));
  }, [value]);
  return (
    <CheckedField
      id={id}
      label={props.label}
      problem={props.problem}
      control={(aria) => (
        <input
          id={id}
          className="input input--number"
          type="number"
          inputMode="numeric"
          min={props.min}
          max={props.max}
          step={1}
          value={text}
          {...aria}
          onChange={(event) => {
            setText(event.target.value);
            props.onChange(typedNumber(event.target.value));
          }}
        />
      )}
    />
  );
}

/** The plan a switch moves to; one the list lacks (typed into the JSON) shows as it is. */
function SwitchPlan(props: {
  family: PlanFamilyId;
  problem: string | undefined;
  onChange(family: PlanFamilyId): void;
}) {
  const id = 'save-offer-action-family';
  const families = SWITCH_FAMILIES.includes(props.family)
    ? SWITCH_FAMILIES
    : [props.family, ...SWITCH_FAMILIES];
  return (
    <CheckedField
      id={id}
      label="Plan to switch to (offered only where it is cheaper than the subscriber’s)"
      problem={props.problem}
      control={(aria) => (
        <select
          id={id}
          value={props.family}
          {...aria}
          onChange={(event) => props.onChange(event.target.value as PlanFamilyId)}
        >
          {families.map((family) => (
            <option key={family} value={family}>
              {planText(family)}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** The fields of the action chosen: its percentage and renewals, its months, or its plan. */
function ActionDetails(props: {
  action: SaveOfferAction;
  problemAt(field: string): string | undefined;
  onChange(action: SaveOfferAction): void;
}) {
  const { action, problemAt, onChange } = props;
  if (action.kind === 'switch') {
    return (
      <SwitchPlan
        family={action.family}
        problem={problemAt('family')}
        onChange={(family) => onChange({ ...action, family })}
      />
    );
  }
  if (action.kind === 'pause') {
    return (
      <ActionNumber
        id="save-offer-action-months"
        label="Months paused (1 to 3)"
        value={action.months}
        min={1}
        max={3}
        problem={problemAt('months')}
        onChange={(months) => onChange({ ...action, months })}
      />
    );
  }
  return (
    <div className="row__fields">
      <ActionNumber
        id="save-offer-action-percent"
        label="Percent off each discounted renewal (5 to 100)"
        value={action.percentOff}
        min={5}
        max={100}
        problem={problemAt('percentOff')}
        onChange={(percentOff) => onChange({ ...action, percentOff })}
      />
      <ActionNumber
        id="save-offer-action-renewals"
        label="Renewals discounted (1 to 12)"
        value={action.renewals}
        min={1}
        max={12}
        problem={problemAt('renewals')}
        onChange={(renewals) => onChange({ ...action, renewals })}
      />
    </div>
  );
}

/**
 * The version's action: a select of what it does, and the fields of the action chosen, each
 * with the check's refusal at its path (`content.saveOffer.variants.b.action.percentOff`).
 */
export function SaveOfferActionFields(props: {
  content: ContentDocument;
  version: OfferVersion;
  errors: readonly FieldError[];
}) {
  const { content, version, errors } = props;
  const action = offerActionOf(content, version);
  const at = `content.saveOffer.${version === null ? '' : `variants.${version}.`}action`;
  const problemAt = (field: string) =>
    errors.find((error) => error.path === (field === '' ? at : `${at}.${field}`))?.message;
  const set = (next: SaveOfferAction | null | undefined) =>
    editContent((drafted) => withOfferAction(drafted, next, version));
  const choice: ActionChoice =
    action === undefined ? 'same' : action === null ? 'words' : action.kind;
  const choose = (picked: string) => {
    if (picked === choice) return;
    if (picked === 'same') set(undefined);
    else set(picked === 'words' ? null : FIRST_ACTION[picked as ActionKind]);
  };
  const id = 'save-offer-action';
  const same = `Same as the offer (${offerActionText(content.saveOffer?.action ?? null)})`;
  return (
    <>
      <CheckedField
        id={id}
        label={`What ${version === null ? 'the offer' : `variant ${version}`} does with one tap`}
        problem={problemAt('')}
        control={(aria) => (
          <select id={id} value={choice} {...aria} onChange={(event) => choose(event.target.value)}>
            {version === null ? null : <option value="same">{same}</option>}
            {Object.entries(CHOICE_WORDS).map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        )}
      />
      {action ? (
        <ActionDetails key={version ?? ''} action={action} problemAt={problemAt} onChange={set} />
      ) : null}
    </>
  );
}
