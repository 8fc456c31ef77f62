import type { ReactNode } from 'react';
import type { VariantChange } from '../../shared/config/experiments';
import type { ScreenChoice } from '../../shared/console-api/config';
import type { PlanFamilyId } from '../../shared/plans/catalogue';
import { DEFAULT_COUNTRY_CURRENCIES } from '../../shared/plans/currency';
import { CurrencyTable } from '../kit/CurrencyTable';
import { FieldProblem } from '../kit/field-problem';
import { PlanChecks, PlanListPicker } from '../kit/PlanListPicker';
import { PLANS_OF_ROLE } from '../kit/route-choices';
import { slotOfKind } from '../kit/route-defaults';
import { nameOptions } from '../kit/SelectField';
import type { ChangeKind } from './experiment-presets';

interface ChangePickerProps {
  id: string;
  variant: string;
  kind: ChangeKind;
  change: VariantChange;
  flows: readonly string[];
  screens: readonly ScreenChoice[];
  /** The content variants the draft defines, by screen (a content test shows one). */
  contentVariants: Readonly<Record<string, readonly string[]>>;
  /** The save offer variants the draft's content defines (a save offer test shows one). */
  saveOffers: readonly string[];
  problem: string | null;
  onChange(change: VariantChange): void;
}

/** What each kind of picker is given: the props, and its problem line and its id. */
interface PickerParts extends ChangePickerProps {
  described: string | undefined;
  problemLine: ReactNode;
}

/**
 * What one variant changes, with a picker that can only name what may be changed: a flow of the
 * config, a screen of the slot the preset tests, a set of the catalogue's main plans, or the
 * upsell's tiers and the guide's price.
 */
export function ChangePicker(props: ChangePickerProps) {
  const { id, kind, problem } = props;
  const problemId = `${id}-problem`;
  const parts: PickerParts = {
    ...props,
    described: problem ? problemId : undefined,
    problemLine: <FieldProblem id={problemId} problem={problem} />,
  };
  if (kind.kind === 'plans' && kind.sells === 'main') return <MainPlansPicker {...parts} />;
  if (kind.kind === 'plans') return <UpsellPlansPicker {...parts} />;
  if (kind.kind === 'content') return <ContentVariantPicker {...parts} />;
  if (kind.kind === 'currencies') return <CurrenciesPicker {...parts} />;
  if (kind.kind === 'saveOffer') return <SaveOfferPicker {...parts} />;
  return <FlowOrScreenPicker {...parts} />;
}

/**
 * The content variant the variant shows, of a screen of the slot the preset tests: those the
 * draft's content defines (the Content area makes them).
 */
function ContentVariantPicker(props: PickerParts) {
  const { id, variant, kind, change, onChange, described, problemLine } = props;
  const slot = kind.kind === 'content' ? kind.slot : null;
  const kinds = new Map(props.screens.map((screen) => [screen.id, screen.kind]));
  const options = Object.entries(props.contentVariants)
    .filter(([screen]) => slotOfKind(kinds.get(screen) ?? 'other') === slot)
    .flatMap(([screen, names]) => names.map((name) => ({ screen, name })));
  const [chosen] = Object.entries(change.content ?? {});
  const value = chosen ? `${chosen[0]}:${chosen[1]}` : '';
  return (
    <div className="field change-picker">
      <label htmlFor={`${id}-content`}>The content variant {variant} shows</label>
      <select
        id={`${id}-content`}
        value={value}
        aria-describedby={described}
        onChange={(event) => {
          const [screen = '', name = ''] = event.target.value.split(':');
          onChange(screen === '' ? {} : { content: { [screen]: name } });
        }}
      >
        <option value="">Choose one</option>
        {options.map(({ screen, name }) => (
          <option key={`${screen}:${name}`} value={`${screen}:${name}`}>
            {screen}: {name}
          </option>
        ))}
      </select>
      {options.length === 0 ? (
        <p className="muted">
          No content variant yet: make one in Content (its Version picker), then choose it here.
        </p>
      ) : null}
      {problemLine}
    </div>
  );
}

/**
 * The save offer variant the variant shows before a cancel, of those the draft's content
 * defines (Content → Save offer before a cancel makes them); the control shows the offer as
 * written.
 */
function SaveOfferPicker(props: PickerParts) {
  const { id, variant, change, onChange, described, problemLine } = props;
  return (
    <div className="field change-picker">
      <label htmlFor={`${id}-save-offer`}>The save offer variant {variant} shows</label>
      <select
        id={`${id}-save-offer`}
        value={change.saveOffer ?? ''}
        aria-invalid={Boolean(props.problem) || undefined}
        aria-describedby={described}
        onChange={(event) => onChange(event.target.value ? { saveOffer: event.target.value } : {})}
      >
        <option value="">Choose one</option>
        {nameOptions(props.saveOffers)}
      </select>
      {props.saveOffers.length === 0 ? (
        <p className="muted">
          No save offer variant yet: add one in Content, Save offer before a cancel, then choose it
          here.
        </p>
      ) : null}
      {problemLine}
    </div>
  );
}

/** The catalogue's main plans the variant offers, in the order checked. */
function MainPlansPicker({ id, variant, change, onChange, described, problemLine }: PickerParts) {
  return (
    <fieldset className="field change-picker" aria-describedby={described}>
      <legend>Plans variant {variant} offers (the first checked is preselected)</legend>
      <PlanChecks
        id={id}
        plans={PLANS_OF_ROLE.main}
        picked={change.plans ?? []}
        onChange={(plans) => onChange(plans ? { plans } : {})}
      />
      {problemLine}
    </fieldset>
  );
}

/** The upsell's tiers and the guide's price, each list left out where none is picked. */
function UpsellPlansPicker({ variant, change, onChange, described, problemLine }: PickerParts) {
  const set = (field: 'upsellPlans' | 'guidePlans', plans: PlanFamilyId[] | undefined) => {
    const next: VariantChange = { ...change };
    if (plans === undefined) delete next[field];
    else next[field] = plans;
    onChange(next);
  };
  return (
    <div className="field change-picker">
      <PlanListPicker
        sells="upsell"
        legend={`Upsell plans variant ${variant} offers (the first checked is preselected)`}
        chosen={change.upsellPlans}
        describedBy={described}
        onChange={(plans) => set('upsellPlans', plans)}
      />
      <PlanListPicker
        sells="guide"
        legend={`Guide variant ${variant} offers`}
        chosen={change.guidePlans}
        describedBy={described}
        onChange={(plans) => set('guidePlans', plans)}
      />
      {problemLine}
    </div>
  );
}

/**
 * The countries whose currency the variant changes, each charged that currency's price points
 * (docs/marketers.md, "Currencies by country"). "Otherwise" names the built-in table's currency:
 * a route's or the document's own table may say another, which the control keeps.
 */
function CurrenciesPicker({ id, variant, change, onChange, problemLine }: PickerParts) {
  return (
    <div className="field change-picker">
      <CurrencyTable
        id={`${id}-currencies`}
        legend={`Currencies variant ${variant} charges in`}
        table={change.currencies}
        over={DEFAULT_COUNTRY_CURRENCIES}
        onChange={(currencies) => onChange(currencies ? { currencies } : {})}
      />
      {problemLine}
    </div>
  );
}

/** The flow the variant walks, or the screen it shows in the slot the preset tests. */
function FlowOrScreenPicker(props: PickerParts) {
  const { id, variant, kind, change, onChange } = props;
  const slot = kind.kind === 'screen' ? kind.slot : null;
  const options =
    slot === null
      ? props.flows
      : props.screens
          .filter((screen) => slotOfKind(screen.kind) === slot)
          .map((screen) => screen.id);
  const value = slot === null ? (change.flow ?? '') : (change.screens?.[slot] ?? '');
  const label =
    slot === null ? `Flow variant ${variant} walks` : `The ${slot} screen variant ${variant} shows`;
  return (
    <div className="field change-picker">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-invalid={Boolean(props.problem) || undefined}
        aria-describedby={props.described}
        onChange={(event) => {
          const picked = event.target.value;
          if (picked === '') onChange({});
          else onChange(slot === null ? { flow: picked } : { screens: { [slot]: picked } });
        }}
      >
        <option value="">Choose…</option>
        {nameOptions(options)}
      </select>
      {props.problemLine}
    </div>
  );
}
