import type { TFunction } from 'i18next';
import type { ContentPicture } from '../../shared/config/content';
import {
  type PictureFormat,
  pictureSrcset,
  pictureUrl,
  pictureWidths,
} from '../../shared/pictures';
import type { Answer, AnswerProblem } from '../../shared/quiz/answers';
import { type Question, textIn } from '../../shared/quiz/question';
import { Island } from '../layout/Island';

/**
 * A question screen of a quiz funnel (shared/quiz/question.ts) as server HTML that works without
 * script: one plain form posting the answer to the screen's own address, whose answer takes the
 * visitor on (the worker holds it to the question, keeps it for the visit and redirects to the
 * next screen). Grouped as the anchors' accessibility rules ask (research: WCAG H71): the choices
 * in a fieldset whose legend is the question, the title focusable for the page's focus.
 *
 * A single or picture choice is a submit button per choice: it goes on when clicked or pressed
 * with Enter or Space, never when focus moves (WCAG 3.2.2; native radios would select, and here
 * submit, on an arrow key). The answer kept for the visit shows as chosen (`aria-pressed`, a
 * checked box, a filled field), so a reload or Back shows it; a refused answer's problem is said
 * above the controls and named by them.
 */
export interface QuestionFormProps {
  question: Question;
  /** The page's language: each text in it, else in English. */
  language: string;
  /** The screen's own address, where the answer is posted. */
  action: string;
  /** What the visitor answered before, kept for the visit. */
  answer?: Answer;
  /** Why the last answer posted was refused. */
  problem?: AnswerProblem;
  /** A result screen's lines, as the visitor's answers choose them (the worker's). */
  lines?: readonly string[];
  t: TFunction;
}

const TITLE_ID = 'question-title';
const PROBLEM_ID = 'question-problem';

export function QuestionForm(props: QuestionFormProps) {
  const { question, language, action, problem } = props;
  const described = problem ? PROBLEM_ID : undefined;
  return (
    <form className="quiz" method="post" action={action} noValidate>
      <fieldset className="quiz__question" aria-describedby={described}>
        <legend className="quiz__legend">
          <h1 id={TITLE_ID} className="quiz__title" tabIndex={-1}>
            {textIn(question.title, language)}
          </h1>
        </legend>
        {question.subtitle ? (
          <p className="quiz__subtitle">{textIn(question.subtitle, language)}</p>
        ) : null}
        {question.kind === 'info' && question.picture ? (
          <QuizPicture picture={question.picture} language={language} />
        ) : null}
        {problem ? (
          <p id={PROBLEM_ID} className="quiz__problem" role="alert">
            {problemText(props)}
          </p>
        ) : null}
        <Controls {...props} />
      </fieldset>
    </form>
  );
}

/** How a refused answer's controls name its problem; nothing when none was refused. */
function problemAttributes(problem: AnswerProblem | undefined) {
  return problem
    ? { 'aria-invalid': true as const, 'aria-describedby': PROBLEM_ID }
    : { 'aria-invalid': undefined, 'aria-describedby': undefined };
}

/** The controls of the question's kind, and its Continue where a choice does not go on itself. */
function Controls(props: QuestionFormProps) {
  const { question, t } = props;
  const continueButton = (
    <button type="submit" className="button button--primary quiz__continue">
      {t('continue')}
    </button>
  );
  switch (question.kind) {
    case 'single':
    case 'pictures':
      return <ChoiceButtons {...props} question={question} />;
    case 'multiple':
      return (
        <>
          <ChoiceBoxes {...props} question={question} />
          {continueButton}
        </>
      );
    case 'number':
    case 'date':
    case 'text':
      return (
        <>
          <Field {...props} question={question} />
          {continueButton}
        </>
      );
    case 'info':
      return continueButton;
    case 'result':
      return (
        <>
          <ul className="quiz__result">
            {(props.lines ?? []).map((line) => (
              <li key={line} className="quiz__result-line">
                {line}
              </li>
            ))}
          </ul>
          {continueButton}
        </>
      );
    case 'building':
      // Moves on by itself once its seconds are up: an island, Skip without script.
      return (
        <Island
          name="BuildingStep"
          props={{
            seconds: question.seconds,
            skip: t('kit.quiz.skip'),
            label: textIn(question.title, props.language),
          }}
        />
      );
  }
}

type Of<Kind extends Question['kind']> = QuestionFormProps & {
  question: Extract<Question, { kind: Kind }>;
};

/** A single or picture choice: a button per choice, posting its value when pressed. */
function ChoiceButtons({ question, language, answer }: Of<'single' | 'pictures'>) {
  const pictures = question.kind === 'pictures';
  return (
    <div className={pictures ? 'quiz__choices quiz__choices--pictures' : 'quiz__choices'}>
      {question.choices.map((choice) => (
        <button
          key={choice.value}
          type="submit"
          name="answer"
          value={choice.value}
          className="quiz__choice"
          aria-pressed={answer === choice.value}
        >
          {choice.picture ? (
            <QuizPicture picture={choice.picture} language={language} decorative />
          ) : null}
          <span className="quiz__label">{textIn(choice.label, language)}</span>
        </button>
      ))}
    </div>
  );
}

/** A multiple choice: a checkbox per choice, the kept ones checked. */
function ChoiceBoxes({ question, language, answer, problem }: Of<'multiple'>) {
  const chosen = new Set(Array.isArray(answer) ? answer : []);
  return (
    <div className="quiz__choices">
      {question.choices.map((choice) => (
        <label key={choice.value} className="quiz__choice">
          <input
            type="checkbox"
            name="answer"
            value={choice.value}
            defaultChecked={chosen.has(choice.value)}
            {...problemAttributes(problem)}
          />
          <span className="quiz__label">{textIn(choice.label, language)}</span>
        </label>
      ))}
    </div>
  );
}

/** A number, date or text: its field named by the question, a number's unit beside it. */
function Field({ question, language, answer, problem }: Of<'number' | 'date' | 'text'>) {
  return (
    <div className="quiz__field">
      <label className="quiz__input">
        <span className="visually-hidden">{textIn(question.title, language)}</span>
        <input {...fieldOf(question, answer)} name="answer" {...problemAttributes(problem)} />
      </label>
      {question.kind === 'number' && question.unit ? (
        <span className="quiz__unit">{textIn(question.unit, language)}</span>
      ) : null}
    </div>
  );
}

/** The input a number, date or text question takes, with its limits and the kept answer. */
function fieldOf(
  question: Extract<Question, { kind: 'number' | 'date' | 'text' }>,
  answer?: Answer,
) {
  const value =
    typeof answer === 'string' || typeof answer === 'number' ? String(answer) : undefined;
  switch (question.kind) {
    case 'number':
      return {
        type: 'number',
        inputMode: 'numeric' as const,
        min: question.min,
        max: question.max,
        step: 1,
        defaultValue: value,
      };
    case 'date':
      return { type: 'date', min: question.earliest, max: question.latest, defaultValue: value };
    case 'text':
      return {
        type: 'text',
        maxLength: question.maxLength,
        autoComplete: 'off',
        defaultValue: value,
      };
  }
}

/** The problem in the visitor's words, with the question's own limits where it has them. */
function problemText({ question, problem, t }: QuestionFormProps): string {
  const limits =
    question.kind === 'number'
      ? { min: question.min, max: question.max }
      : question.kind === 'text'
        ? { max: question.maxLength }
        : question.kind === 'multiple'
          ? { most: question.most ?? question.choices.length }
          : { most: 1 };
  return t(`kit.quiz.problems.${problem}`, limits);
}

const FORMATS: readonly { format: PictureFormat; type: string }[] = [
  { format: 'avif', type: 'image/avif' },
  { format: 'webp', type: 'image/webp' },
];

/** A picture of the library, as a choice's or an info screen's, sized for a phone's column. */
function QuizPicture({
  picture,
  language,
  decorative = false,
}: {
  picture: ContentPicture;
  language: string;
  /** Beside words that say it (a choice's label): no alt text, so it is not said twice. */
  decorative?: boolean;
}) {
  const { id, width, height, alt } = picture;
  const fallback = pictureWidths(width).find((w) => w >= 320) ?? width;
  return (
    <picture className="quiz__picture">
      {FORMATS.map(({ format, type }) => (
        <source
          key={format}
          type={type}
          srcSet={pictureSrcset(id, width, format)}
          sizes="(min-width: 480px) 220px, 45vw"
        />
      ))}
      <img
        src={pictureUrl(id, fallback, 'jpg')}
        width={width}
        height={height}
        alt={decorative ? '' : textIn(alt, language)}
        loading="lazy"
        decoding="async"
      />
    </picture>
  );
}
