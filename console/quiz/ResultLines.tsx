import type { ContentDocument } from '../../shared/config/content';
import type { Question } from '../../shared/quiz/question';
import { languageName } from '../kit/content-text';
import { FieldMessages } from '../kit/FieldMessages';
import { SelectField } from '../kit/SelectField';
import { withLine, withNewLine, withoutLine } from './question-edits';

type Result = Extract<Question, { kind: 'result' }>;

/**
 * A result screen's lines: each its text in the language edited, and when it shows: always, or
 * when an answer to one of the quiz's choosing questions is a value (the check holds the
 * question to come before it in each flow that shows the result).
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
  // Every value a choosing question offers, as `key=value`, named as the marketer reads it.
  const conditions = Object.values(props.questions).flatMap((own) =>
    'choices' in own && 'key' in own
      ? own.choices.map((choice) => ({
          value: `${own.key}=${choice.value}`,
          name: `${own.key} is ${choice.label.en ?? choice.value}`,
        }))
      : [],
  );
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
            <SelectField
              id={`quiz-line-when-${index}`}
              label={`Line ${index + 1} shows`}
              value={line.when?.test === 'equals' ? `${line.when.key}=${line.when.value}` : ''}
              onChange={(picked) => {
                const [key = '', value = ''] = picked.split('=');
                change((own) =>
                  withLine(own, index, { when: picked === '' ? null : { key, value } }),
                );
              }}
            >
              <option value="">always</option>
              {conditions.map((condition) => (
                <option key={condition.value} value={condition.value}>
                  when {condition.name}
                </option>
              ))}
            </SelectField>
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
