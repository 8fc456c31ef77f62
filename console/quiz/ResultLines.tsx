import type { ContentDocument } from '../../shared/config/content';
import type { BranchCondition } from '../../shared/quiz/condition';
import type { Question } from '../../shared/quiz/question';
import { languageName } from '../kit/content-text';
import { FieldMessages } from '../kit/FieldMessages';
import { SelectField } from '../kit/SelectField';
import { withLine, withNewLine, withoutLine } from './question-edits';
import { RangeEnds } from './RangeEnds';

type Result = Extract<Question, { kind: 'result' }>;

/**
 * A result screen's lines: each its text in the language edited, and when it shows (LineCondition;
 * the check holds the question it reads to come before it in each flow that shows the result).
 */
export function ResultLines(props: {
  id: string;
  asked: Result;
  questions: NonNullable<ContentDocument['questions']>;
  language: string;
  change: (edit: (own: Question) => Question) => void;
}) {
  const { id, asked, language, change } = props;
  const at = `content.questions.${id}.lines`;
  return (
    <fieldset className="quiz-lines">
      <legend>The plan’s lines</legend>
      <FieldMessages path={at} />
      <ol>
        {asked.lines.map((line, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: a line is its place: its text changes as it is typed.
            key={index}
          >
            <div className="field">
              <label htmlFor={`quiz-line-${index}`}>
                Line {index + 1} ({languageName(language)})
              </label>
              <input
                id={`quiz-line-${index}`}
                className="input"
                value={line.text[language] ?? ''}
                placeholder={language === 'en' ? undefined : line.text.en}
                onChange={(event) =>
                  change((own) => withLine(own, index, { text: event.target.value }, language))
                }
              />
              <FieldMessages path={`${at}.${index}`} />
            </div>
            <LineCondition
              index={index}
              when={line.when}
              questions={props.questions}
              onChange={(when) => change((own) => withLine(own, index, { when }))}
            />
            <button
              type="button"
              className="button button--small"
              onClick={() => change((own) => withoutLine(own, index))}
            >
              Remove line {index + 1}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="button button--small" onClick={() => change(withNewLine)}>
        Add a line
      </button>
    </fieldset>
  );
}

/** How a condition reads in the line's select: `equals:who=child`, `between:age`, …. */
function pickedOf(when: BranchCondition | undefined): string {
  if (when === undefined) return '';
  if (when.test === 'equals') return `equals:${when.key}=${when.value}`;
  if (when.test === 'between') return `between:${when.key}`;
  return 'written';
}

/**
 * When a line shows: always, when an answer to a choosing question is one of its values, or
 * when a number question's answer is in a range (from and to then asked). A condition written in
 * the config document that none of these says (one of several values) is kept, and said.
 */
function LineCondition(props: {
  index: number;
  when: BranchCondition | undefined;
  questions: NonNullable<ContentDocument['questions']>;
  onChange: (when: BranchCondition | null) => void;
}) {
  const { index, when, onChange } = props;
  const asked = Object.values(props.questions);
  const pick = (picked: string) => {
    const [test = '', rest = ''] = picked.split(/:(.*)/s);
    if (test === 'equals') {
      const [key = '', value = ''] = rest.split('=');
      onChange({ test: 'equals', key, value });
    } else if (test === 'between') {
      const number = asked.find((own) => own.kind === 'number' && own.key === rest);
      const bounds = number?.kind === 'number' ? number : { min: 0, max: 0 };
      onChange({ test: 'between', key: rest, min: bounds.min, max: bounds.max });
    } else if (picked === '') onChange(null);
  };
  return (
    <>
      <SelectField
        id={`quiz-line-when-${index}`}
        label={`Line ${index + 1} shows`}
        value={pickedOf(when)}
        onChange={pick}
      >
        <option value="">always</option>
        {asked.flatMap((own) =>
          'choices' in own && 'key' in own
            ? own.choices.map((choice) => (
                <option
                  key={`${own.key}=${choice.value}`}
                  value={`equals:${own.key}=${choice.value}`}
                >
                  when {own.key} is {choice.label.en ?? choice.value}
                </option>
              ))
            : own.kind === 'number'
              ? [
                  <option key={`between:${own.key}`} value={`between:${own.key}`}>
                    when {own.key} is in a range
                  </option>,
                ]
              : [],
        )}
        {when?.test === 'one_of' ? (
          <option value="written">
            when {when.key} is one of {when.values.join(', ')} (written in the config)
          </option>
        ) : null}
      </SelectField>
      {when?.test === 'between' ? (
        <LineRange index={index} when={when} onChange={onChange} />
      ) : null}
    </>
  );
}

/** A line's range on a number answer: from and to, both included. */
function LineRange(props: {
  index: number;
  when: Extract<BranchCondition, { test: 'between' }>;
  onChange: (when: BranchCondition) => void;
}) {
  const { index, when, onChange } = props;
  return (
    <div className="field-row">
      <RangeEnds
        id={`quiz-line-${index}`}
        name={`Line ${index + 1}: ${when.key}`}
        min={when.min}
        max={when.max}
        onChange={(ends) => onChange({ ...when, ...ends })}
      />
    </div>
  );
}
