import { useState } from 'react';
import type { Question } from '../../shared/quiz/question';
import { flowsWalking } from '../kit/composed-screens';
import { PageLink } from '../kit/PageLink';
import { nameOptions, SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import { $draft, editContent } from '../kit/stores/draft';
import { openPage } from '../kit/stores/page';
import { FlowWalk } from './FlowWalk';
import { QuestionEditor } from './QuestionEditor';
import {
  answerKeyProblem,
  asksKey,
  kindName,
  newQuestion,
  QUESTION_KINDS,
  type QuestionKind,
  questionNameProblem,
  withQuestion,
} from './question-edits';

/**
 * The quiz's questions (docs/marketers.md, "A quiz funnel, step by step"): each at its own page
 * (`/console/quiz/<name>`), the flows that ask it, and a new one made here. Edits stay in the
 * draft until reviewed and published with the rest of the config.
 */
export function Quiz({ question = null }: { question?: string | null }) {
  return (
    <section className="section" id="quiz" aria-labelledby="quiz-title">
      <h2 id="quiz-title" tabIndex={-1}>
        {question ? `Question ${question}` : 'Quiz'}
      </h2>
      {question ? <QuestionEditor id={question} /> : <Questions />}
    </section>
  );
}

function Questions() {
  const draft = useStore($draft);
  if (!draft) return null;
  const { content, flows } = draft.document;
  const questions = Object.entries(content.questions ?? {});
  return (
    <>
      <p className="muted">
        Questions a visitor answers before the paywall, each at its own address. Put one in a flow
        under <PageLink area="publish">Edit and publish</PageLink>, where its answers may lead
        elsewhere, and say an answer in later copy as <code>{'{{answer.key}}'}</code>.
      </p>
      {questions.length === 0 ? (
        <p>No questions yet.</p>
      ) : (
        <ul className="quiz-list">
          {questions.map(([id, asked]) => (
            <QuestionRow key={id} id={id} asked={asked} walkedBy={flowsWalking(flows.flows, id)} />
          ))}
        </ul>
      )}
      <NewQuestion />
      <FlowWalk document={draft.document} />
    </>
  );
}

function QuestionRow(props: { id: string; asked: Question; walkedBy: string[] }) {
  const { id, asked, walkedBy } = props;
  return (
    <li className="row">
      <PageLink area="quiz" id={id}>
        {id}
      </PageLink>{' '}
      <span className="muted">
        {kindName(asked.kind)}: “{asked.title.en}”,{' '}
        {walkedBy.length > 0 ? `asked in ${walkedBy.join(', ')}` : 'in no flow yet'}
      </span>
    </li>
  );
}

/** The new question's name, kind, key and English title, each checked once Create is pressed. */
function NewQuestion() {
  const draft = useStore($draft);
  const [typed, setTyped] = useState({ name: '', key: '', title: '' });
  const [kind, setKind] = useState<QuestionKind>('single');
  const [tried, setTried] = useState(false);
  if (!draft) return null;
  const name = typed.name.trim();
  const problems = {
    name: questionNameProblem(draft.document.content, name),
    key: asksKey(kind) ? answerKeyProblem(typed.key.trim()) : null,
    title: typed.title.trim() === '' ? 'Write the question, in English.' : null,
  };
  const fieldOf = (field: keyof typeof problems) => ({
    value: typed[field],
    onChange: (value: string) => setTyped({ ...typed, [field]: value }),
    problem: tried ? problems[field] : null,
  });
  const create = () => {
    setTried(true);
    if (problems.name || problems.key || problems.title) return;
    const made = newQuestion(kind, typed.key.trim(), typed.title.trim());
    editContent((own) => withQuestion(own, name, made));
    openPage('quiz', name);
  };
  return (
    <fieldset className="quiz-new">
      <legend>New question</legend>
      <div className="field-row">
        <NewField
          id="quiz-new-name"
          label="Name (its address)"
          hint="Such as q_who: visitors open /q_who."
          {...fieldOf('name')}
        />
        <SelectField
          id="quiz-new-kind"
          label="Kind"
          value={kind}
          onChange={(value) => setKind(value as QuestionKind)}
        >
          {nameOptions(
            QUESTION_KINDS.map((each) => each.kind),
            kindName,
          )}
        </SelectField>
        {asksKey(kind) ? (
          <NewField
            id="quiz-new-key"
            label="Answer key"
            hint="Later copy says the answer as {{answer.key}}."
            {...fieldOf('key')}
          />
        ) : null}
        <NewField
          id="quiz-new-title"
          label="Question (English)"
          hint="What the visitor reads as the page’s heading."
          {...fieldOf('title')}
        />
      </div>
      <button type="button" className="button button--small" onClick={create}>
        Create question
      </button>
    </fieldset>
  );
}

/** A field of the new question, its problem (once Create was pressed) or its hint below it. */
function NewField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
  hint: string;
}) {
  const { id, problem } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        className="input"
        value={props.value}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className={problem ? 'field-problem' : 'muted'}>
        {problem ?? props.hint}
      </p>
    </div>
  );
}
