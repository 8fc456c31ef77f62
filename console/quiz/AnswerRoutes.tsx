import type { Question } from '../../shared/quiz/question';
import { FieldMessages } from '../kit/FieldMessages';
import { SelectField } from '../kit/SelectField';
import { editFlows } from '../kit/stores/draft';
import {
  choiceTarget,
  otherwiseTarget,
  type RangeTarget,
  rangeTargets,
  withChoiceTarget,
  withOtherwise,
  withRangeTargets,
} from './question-edits';
import { RangeEnds } from './RangeEnds';

/**
 * Where a question's answers lead in one flow that asks it (shared/quiz/branches.ts): each
 * choice to a later screen of the flow, or on in the flow's order, and any other answer too.
 * What the check refuses (a loop, a screen no answer reaches, no way to the checkout) is said
 * here, at the branches' path, and on the flow's screens under Edit and publish.
 */
export function AnswerRoutes(props: {
  id: string;
  asked: Question;
  flow: string;
  screens: readonly string[];
  flows: Parameters<typeof choiceTarget>[0];
}) {
  const { id, asked, flow, screens, flows } = props;
  const later = screens.slice(screens.indexOf(id) + 1);
  // A choice without a screen of its own goes where any other answer goes.
  const options = (unset: string) => (
    <>
      <option value="">{unset}</option>
      {later.map((screen) => (
        <option key={screen} value={screen}>
          {screen}
        </option>
      ))}
    </>
  );
  // A choosing question's choices, each led by its value under the question's key.
  const key = 'key' in asked ? asked.key : '';
  const choices = 'choices' in asked ? asked.choices : [];
  return (
    <fieldset className="quiz-routes">
      <legend>In flow {flow}, after this question</legend>
      <FieldMessages path={`flows.branches.${flow}.${id}`} />
      {choices.map((choice, index) => (
        <SelectField
          key={choice.value}
          id={`quiz-route-${flow}-${index}`}
          label={`“${choice.label.en ?? choice.value}” goes to`}
          value={choiceTarget(flows, flow, id, key, choice.value) ?? ''}
          onChange={(next) =>
            editFlows((own) =>
              withChoiceTarget(
                own,
                { flow, id, key, value: choice.value },
                next === '' ? null : next,
              ),
            )
          }
        >
          {options('where any other answer goes')}
        </SelectField>
      ))}
      {asked.kind === 'number' ? (
        <NumberRanges
          target={{ flow, id, key }}
          ranges={rangeTargets(flows, flow, id, key)}
          later={later}
          bounds={{ min: asked.min, max: asked.max }}
        />
      ) : null}
      <SelectField
        id={`quiz-route-${flow}-otherwise`}
        label={
          choices.length > 0 || asked.kind === 'number'
            ? 'Any other answer goes to'
            : 'Then goes to'
        }
        value={otherwiseTarget(flows, flow, id) ?? ''}
        onChange={(next) =>
          editFlows((own) => withOtherwise(own, flow, id, next === '' ? null : next))
        }
      >
        {options('the next screen in the flow')}
      </SelectField>
    </fieldset>
  );
}

/**
 * A number question's ranges, each leading its answers to a later screen (`between` branches):
 * the first range an answer is in decides, so they are listed in the order they are tried.
 */
function NumberRanges(props: {
  target: { flow: string; id: string; key: string };
  ranges: readonly RangeTarget[];
  later: readonly string[];
  bounds: { min: number; max: number };
}) {
  const { target, ranges, later, bounds } = props;
  const save = (next: readonly RangeTarget[]) =>
    editFlows((own) => withRangeTargets(own, target, next));
  const changed = (index: number, change: Partial<RangeTarget>) =>
    save(ranges.map((range, at) => (at === index ? { ...range, ...change } : range)));
  const first = later[0];
  return (
    <>
      {ranges.length > 1 ? <p className="muted">The first range an answer is in decides.</p> : null}
      {ranges.map((range, index) => {
        const at = `quiz-range-${target.flow}-${index}`;
        const name = `Range ${index + 1}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a range is its place in the list
          <div className="field-row" key={index}>
            <RangeEnds
              id={at}
              name={name}
              min={range.min}
              max={range.max}
              onChange={(ends) => changed(index, ends)}
            />
            <SelectField
              id={`${at}-next`}
              label={`${name} goes to`}
              value={range.next}
              onChange={(next) => changed(index, { next })}
            >
              {later.map((screen) => (
                <option key={screen} value={screen}>
                  {screen}
                </option>
              ))}
            </SelectField>
            <button
              type="button"
              className="button button--small"
              onClick={() => save(ranges.filter((_, at) => at !== index))}
            >
              Remove range {index + 1}
            </button>
          </div>
        );
      })}
      {first === undefined ? null : (
        <button
          type="button"
          className="button button--small"
          onClick={() => save([...ranges, { min: bounds.min, max: bounds.max, next: first }])}
        >
          Add a range
        </button>
      )}
    </>
  );
}
