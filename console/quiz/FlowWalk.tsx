import { useState } from 'react';
import type { ConfigDocument } from '../../shared/console-api/config';
import type { Answers } from '../../shared/quiz/answers';
import type { FlowBranches } from '../../shared/quiz/branches';
import type { Question } from '../../shared/quiz/question';
import { walkOf } from '../../shared/quiz/walk';
import { nameOptions, SelectField } from '../kit/SelectField';
import { FlowGraph } from './FlowGraph';

/**
 * A quiz flow as the draft has it: drawn as a graph (FlowGraph) and listed as its screens in
 * order, each with where it leads (a question's answers to their screens, any other screen to
 * the next), and *Test a visitor*: the
 * screens a visitor with the chosen answers walks, by the same rules the worker takes them on
 * with (shared/quiz/walk.ts).
 */
export function FlowWalk({ document }: { document: ConfigDocument }) {
  const questions = document.content.questions ?? {};
  const asking = Object.entries(document.flows.flows).filter(([, screens]) =>
    screens.some((ref) => Object.hasOwn(questions, ref)),
  );
  const [chosen, setChosen] = useState('');
  const [answers, setAnswers] = useState<Record<string, string>>({});
  if (asking.length === 0) return null;
  const flow = asking.find(([name]) => name === chosen) ?? asking[0];
  if (!flow) return null;
  const [name, screens] = flow;
  const branches = (document.flows.branches?.[name] ?? {}) as FlowBranches;
  const asked = screens.flatMap((ref) => {
    const own = Object.hasOwn(questions, ref) ? questions[ref] : undefined;
    return own && 'key' in own ? [[ref, own] as const] : [];
  });
  const walked = walkOf(screens, branches, givenAnswers(asked, answers));
  return (
    <section className="quiz-walk" aria-labelledby="quiz-walk-title">
      <h3 id="quiz-walk-title">Test a visitor</h3>
      <SelectField id="quiz-walk-flow" label="Flow" value={name} onChange={setChosen}>
        {nameOptions(asking.map(([each]) => each))}
      </SelectField>
      {asked.map(([ref, own]) => (
        <AnswerPicker
          key={ref}
          id={ref}
          asked={own}
          value={answers[own.key] ?? ''}
          onChange={(value) => setAnswers({ ...answers, [own.key]: value })}
        />
      ))}
      <p role="status" aria-live="polite">
        Walks: {walked.join(' → ')}
      </p>
      <h3>Flow {name}</h3>
      <FlowGraph screens={screens} branches={branches} />
      <ol className="quiz-walk__map">
        {screens.map((ref) => (
          <li key={ref}>
            {ref}
            {Object.hasOwn(branches, ref) ? <Leads own={branches[ref]} /> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

type Asked = readonly (readonly [string, Extract<Question, { key: string }>])[];

/** The answers picked, as the worker keeps them: a choice's value, a whole number. */
function givenAnswers(asked: Asked, picked: Readonly<Record<string, string>>): Answers {
  const given: Record<string, string | number | string[]> = {};
  for (const [, own] of asked) {
    const value = picked[own.key];
    if (value === undefined || value === '') continue;
    if (own.kind === 'number') given[own.key] = Number(value);
    else if (own.kind === 'multiple') given[own.key] = [value];
    else given[own.key] = value;
  }
  return given;
}

function AnswerPicker(props: {
  id: string;
  asked: Extract<Question, { key: string }>;
  value: string;
  onChange: (value: string) => void;
}) {
  const { id, asked } = props;
  const label = `${id}: ${asked.title.en ?? ''}`;
  if ('choices' in asked) {
    return (
      <SelectField
        id={`quiz-walk-${id}`}
        label={label}
        value={props.value}
        onChange={props.onChange}
      >
        <option value="">No answer</option>
        {asked.choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label.en ?? choice.value}
          </option>
        ))}
      </SelectField>
    );
  }
  if (asked.kind !== 'number') return null;
  return (
    <div className="field">
      <label htmlFor={`quiz-walk-${id}`}>{label}</label>
      <input
        id={`quiz-walk-${id}`}
        className="input"
        type="number"
        step={1}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

/** Where a question's answers lead, as a sentence per rule. */
function Leads({ own }: { own: FlowBranches[string] | undefined }) {
  if (!own) return null;
  return (
    <ul className="muted">
      {own.branches.map(({ when, next }) => (
        <li key={`${JSON.stringify(when)}:${next}`}>
          {when.test === 'equals'
            ? `${when.key} is ${when.value}`
            : when.test === 'one_of'
              ? `${when.key} is one of ${when.values.join(', ')}`
              : `${when.key} from ${when.min} to ${when.max}`}{' '}
          → {next}
        </li>
      ))}
      {own.otherwise ? <li>any other answer → {own.otherwise}</li> : null}
    </ul>
  );
}
