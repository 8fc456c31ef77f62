import type { Question } from '../../shared/quiz/question';
import { FieldMessages } from '../kit/FieldMessages';
import { SelectField } from '../kit/SelectField';
import { editFlows } from '../kit/stores/draft';
import { choiceTarget, otherwiseTarget, withChoiceTarget, withOtherwise } from './question-edits';

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
      <SelectField
        id={`quiz-route-${flow}-otherwise`}
        label={choices.length > 0 ? 'Any other answer goes to' : 'Then goes to'}
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
