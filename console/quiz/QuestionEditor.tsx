import { useEffect, useState } from 'react';
import type { ContentDocument } from '../../shared/config/content';
import { PLAN_FAMILY_IDS, type PlanFamilyId } from '../../shared/plans/catalogue';
import type { Question } from '../../shared/quiz/question';
import {
  $contentCatalogue,
  loadContentCatalogue,
  loadPictureLibrary,
} from '../content/stores/content-editor';
import { flowsWalking } from '../kit/composed-screens';
import { languageName } from '../kit/content-text';
import { FieldMessages, useFieldErrors } from '../kit/FieldMessages';
import { MoveButtons } from '../kit/MoveButtons';
import { PageLink } from '../kit/PageLink';
import { planText } from '../kit/plan-text';
import { nameOptions, SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import { $draft, editContent } from '../kit/stores/draft';
import { openPage } from '../kit/stores/page';
import { AnswerRoutes } from './AnswerRoutes';
import { LibraryPicture } from './LibraryPicture';
import { QuestionPreview } from './QuestionPreview';
import {
  asksKey,
  editQuestion,
  kindName,
  withChoice,
  withChoiceMoved,
  withChoicePicture,
  withChoicePlan,
  withInfoPicture,
  withNewChoice,
  withoutChoice,
  withoutQuestion,
  withPictureAlt,
  withText,
} from './question-edits';
import { ResultLines } from './ResultLines';

/**
 * One question's page: its texts in English, its answer key, its choices (each a label the
 * visitor reads and a value the product API, the analytics and the branches read), and what its
 * kind limits (a range, a length, seconds). Every field edits the draft as it is typed; the
 * publish's check says each refusal beside its field.
 */
export function QuestionEditor({ id }: { id: string }) {
  const draft = useStore($draft);
  const [language, setLanguage] = useState('en');
  const asked = draft?.document.content.questions?.[id];
  const pictured = asked?.kind === 'pictures' || asked?.kind === 'info' ? id : null;
  // The library as it is now, each time a question with pictures is opened: one uploaded since
  // (on the Content page, in another tab) is offered.
  useEffect(() => {
    if (pictured !== null) void loadPictureLibrary();
  }, [pictured]);
  if (!draft) return null;
  if (!asked) {
    return (
      <p>
        The draft has no question {id}. <PageLink area="quiz">All questions</PageLink>
      </p>
    );
  }
  const change = (edit: (own: Question) => Question) =>
    editContent((content) => editQuestion(content, id, edit));
  const at = `content.questions.${id}`;
  return (
    <div className="quiz-editor">
      <p className="muted">
        {kindName(asked.kind)}, at <code>/{id}</code>.{' '}
        <PageLink area="quiz">All questions</PageLink>
      </p>
      <FieldMessages path={at} />
      <LanguagePicker language={language} onChange={setLanguage} />
      <TextField
        path={`${at}.title.${language}`}
        label={`Question (${languageName(language)})`}
        value={asked.title[language] ?? ''}
        placeholder={language === 'en' ? undefined : asked.title.en}
        onChange={(text) => change((own) => withText(own, 'title', text, language))}
      />
      <TextField
        path={`${at}.subtitle.${language}`}
        label={`Line under it (${languageName(language)}, optional)`}
        value={asked.subtitle?.[language] ?? ''}
        placeholder={language === 'en' ? undefined : asked.subtitle?.en}
        onChange={(text) => change((own) => withText(own, 'subtitle', text, language))}
      />
      {asksKey(asked.kind) && 'key' in asked ? (
        <TextField
          path={`${at}.key`}
          label="Answer key"
          value={asked.key}
          onChange={(key) => change((own) => ({ ...own, key }) as Question)}
        />
      ) : null}
      <KindFields
        id={id}
        asked={asked}
        change={change}
        language={language}
        questions={draft.document.content.questions ?? {}}
      />
      {flowsWalking(draft.document.flows.flows, id).map((flow) => (
        <AnswerRoutes
          key={flow}
          id={id}
          asked={asked}
          flow={flow}
          screens={draft.document.flows.flows[flow] ?? []}
          flows={draft.document.flows}
        />
      ))}
      <DeleteQuestion id={id} walkedBy={flowsWalking(draft.document.flows.flows, id)} />
      <QuestionPreview id={id} content={draft.document.content} />
    </div>
  );
}

type Change = (edit: (own: Question) => Question) => void;

/** A field of the question, with the check's refusals at `path` beside it. */
function TextField(props: {
  path: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  numeric?: boolean;
  /** Another language's field shows the English it falls back to. */
  placeholder?: string;
}) {
  const { invalid, describedBy } = useFieldErrors(props.path);
  const id = `field-${props.path.replaceAll('.', '-')}`;
  const numeric = props.numeric ? { type: 'number', inputMode: 'numeric' as const, step: 1 } : {};
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        className="input"
        {...numeric}
        value={props.value}
        placeholder={props.placeholder}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <FieldMessages path={props.path} />
    </div>
  );
}

/** A whole number of the question (a range's end, a length, seconds); empty is none. */
function NumberField(props: {
  path: string;
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
}) {
  return (
    <TextField
      path={props.path}
      label={props.label}
      numeric
      value={props.value === undefined ? '' : String(props.value)}
      onChange={(typed) => props.onChange(typed === '' ? undefined : Math.trunc(Number(typed)))}
    />
  );
}

/** What the question's kind asks beyond its texts. */
function KindFields(props: {
  id: string;
  asked: Question;
  change: Change;
  language: string;
  questions: NonNullable<ContentDocument['questions']>;
}) {
  const { id, asked, change, language } = props;
  const at = `content.questions.${id}`;
  const set = (field: string, value: unknown) =>
    change((own) => {
      const { [field]: _old, ...rest } = own as Record<string, unknown>;
      return (value === undefined ? rest : { ...rest, [field]: value }) as Question;
    });
  switch (asked.kind) {
    case 'single':
    case 'pictures':
      return <Choices id={id} asked={asked} change={change} language={language} />;
    case 'multiple':
      return (
        <>
          <Choices id={id} asked={asked} change={change} language={language} />
          <NumberField
            path={`${at}.most`}
            label="At most this many chosen (optional)"
            value={asked.most}
            onChange={(most) => set('most', most)}
          />
        </>
      );
    case 'number':
      return <RangeFields at={at} asked={asked} change={change} set={set} language={language} />;
    case 'text':
      return (
        <NumberField
          path={`${at}.maxLength`}
          label="Longest answer (characters)"
          value={asked.maxLength}
          onChange={(length) => set('maxLength', length ?? 1)}
        />
      );
    case 'building':
      return (
        <NumberField
          path={`${at}.seconds`}
          label="Seconds before it moves on"
          value={asked.seconds}
          onChange={(seconds) => set('seconds', seconds ?? 1)}
        />
      );
    case 'date':
      return (
        <div className="field-row">
          <TextField
            path={`${at}.earliest`}
            label="Earliest day (YYYY-MM-DD, optional)"
            value={asked.earliest ?? ''}
            onChange={(day) => set('earliest', day === '' ? undefined : day)}
          />
          <TextField
            path={`${at}.latest`}
            label="Latest day (YYYY-MM-DD, optional)"
            value={asked.latest ?? ''}
            onChange={(day) => set('latest', day === '' ? undefined : day)}
          />
        </div>
      );
    case 'result':
      return <ResultLines {...props} asked={asked} />;
    case 'info':
      return <InfoPicture at={at} asked={asked} change={change} language={language} />;
  }
}

/**
 * An information screen's picture, from the library, and what it shows in the language being
 * edited: the page shows it to everyone, so the publish asks a description in every language.
 */
function InfoPicture(props: {
  at: string;
  asked: Extract<Question, { kind: 'info' }>;
  change: Change;
  language: string;
}) {
  const { at, asked, change, language } = props;
  return (
    <>
      <LibraryPicture
        id="quiz-info-picture"
        label="Picture (optional)"
        path={`${at}.picture`}
        chosen={asked.picture?.id}
        onChange={(picture) => change((own) => withInfoPicture(own, picture))}
      />
      {asked.picture ? (
        <TextField
          path={`${at}.picture.alt.${language}`}
          label={`What the picture shows (${languageName(language)})`}
          value={asked.picture.alt[language] ?? ''}
          placeholder={language === 'en' ? undefined : asked.picture.alt.en}
          onChange={(text) => change((own) => withPictureAlt(own, text, language))}
        />
      ) : null}
    </>
  );
}

/** A number question's range and unit. */
function RangeFields(props: {
  at: string;
  asked: Extract<Question, { kind: 'number' }>;
  change: Change;
  set: (field: string, value: unknown) => void;
  language: string;
}) {
  const { at, asked, change, set, language } = props;
  return (
    <div className="field-row">
      <NumberField
        path={`${at}.min`}
        label="Lowest"
        value={asked.min}
        onChange={(min) => set('min', min ?? 0)}
      />
      <NumberField
        path={`${at}.max`}
        label="Highest"
        value={asked.max}
        onChange={(max) => set('max', max ?? 0)}
      />
      <TextField
        path={`${at}.unit.${language}`}
        label={`Unit (${languageName(language)}, optional)`}
        value={asked.unit?.[language] ?? ''}
        placeholder={language === 'en' ? undefined : asked.unit?.en}
        onChange={(text) => change((own) => withText(own, 'unit', text, language))}
      />
    </div>
  );
}

/**
 * The plan a choice preselects on the paywalls after it, where they offer it; none by default.
 */
function ChoicePlan(props: {
  index: number;
  plan: PlanFamilyId | undefined;
  onChange: (plan: PlanFamilyId | null) => void;
}) {
  return (
    <SelectField
      id={`quiz-choice-plan-${props.index}`}
      label={`Choice ${props.index + 1} preselects`}
      value={props.plan ?? ''}
      onChange={(value) => props.onChange(isPlanFamily(value) ? value : null)}
    >
      <option value="">no plan: the paywall’s own</option>
      {nameOptions(PLAN_FAMILY_IDS, planText)}
    </SelectField>
  );
}

const isPlanFamily = (value: string): value is PlanFamilyId =>
  (PLAN_FAMILY_IDS as readonly string[]).includes(value);

/**
 * The language the texts are edited in, one at a time as copy is (docs/marketers.md, "One
 * language at a time"): English first; another shows the English it falls back to.
 */
function LanguagePicker(props: { language: string; onChange: (language: string) => void }) {
  const catalogue = useStore($contentCatalogue);
  useEffect(() => {
    if ($contentCatalogue.get().kind !== 'ready') void loadContentCatalogue();
  }, []);
  const languages = catalogue.kind === 'ready' ? catalogue.catalogue.languages : ['en'];
  return (
    <SelectField
      id="quiz-language"
      label="Language"
      value={props.language}
      onChange={props.onChange}
    >
      {nameOptions(languages, languageName)}
    </SelectField>
  );
}

/** A choosing question's choices: each label and value, moved, removed, and one more added. */
function Choices({
  id,
  asked,
  change,
  language,
}: {
  id: string;
  asked: Extract<Question, { choices: unknown }>;
  change: Change;
  language: string;
}) {
  const at = `content.questions.${id}.choices`;
  return (
    <fieldset className="quiz-choices">
      <legend>Choices</legend>
      <FieldMessages path={at} />
      <ol className="quiz-choices__list">
        {asked.choices.map((choice, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: a choice is its place: keyed by its value, typing the value would draw a new field under the cursor.
            key={index}
            className="quiz-choices__item"
          >
            <div className="field-row">
              <TextField
                path={`${at}.${index}.label.${language}`}
                label={`Choice ${index + 1} (${languageName(language)})`}
                value={choice.label[language] ?? ''}
                placeholder={language === 'en' ? undefined : choice.label.en}
                onChange={(label) => change((own) => withChoice(own, index, { label }, language))}
              />
              <TextField
                path={`${at}.${index}.value`}
                label={`Choice ${index + 1}’s value`}
                value={choice.value}
                onChange={(value) => change((own) => withChoice(own, index, { value }))}
              />
              <ChoicePlan
                index={index}
                plan={choice.plan}
                onChange={(plan) => change((own) => withChoicePlan(own, index, plan))}
              />
              {asked.kind === 'pictures' ? (
                <LibraryPicture
                  id={`quiz-choice-picture-${index}`}
                  label={`Choice ${index + 1}’s picture`}
                  path={`${at}.${index}.picture`}
                  chosen={choice.picture?.id}
                  onChange={(picture) => change((own) => withChoicePicture(own, index, picture))}
                />
              ) : null}
            </div>
            <MoveButtons
              as="p"
              ids={{
                up: `quiz-choice-up-${index}`,
                down: `quiz-choice-down-${index}`,
                remove: `quiz-choice-remove-${index}`,
              }}
              labels={{
                up: `Move choice ${index + 1} up`,
                down: `Move choice ${index + 1} down`,
                remove: `Remove choice ${index + 1}`,
              }}
              first={index === 0}
              last={index === asked.choices.length - 1}
              onMove={(by) => change((own) => withChoiceMoved(own, index, by))}
              onRemove={() => change((own) => withoutChoice(own, index))}
            />
          </li>
        ))}
      </ol>
      <button type="button" className="button button--small" onClick={() => change(withNewChoice)}>
        Add a choice
      </button>
    </fieldset>
  );
}

/** Deletes the question, or says which flows still ask it. */
function DeleteQuestion({ id, walkedBy }: { id: string; walkedBy: string[] }) {
  const [said, setSaid] = useState<string | null>(null);
  const remove = () => {
    if (walkedBy.length > 0) {
      setSaid(`Flows ${walkedBy.join(', ')} ask ${id}: take it out of them first.`);
      return;
    }
    editContent((content) => withoutQuestion(content, id));
    openPage('quiz');
  };
  return (
    <div className="field">
      <p>
        <button type="button" className="button button--small" onClick={remove}>
          Delete question {id}
        </button>
      </p>
      {said ? (
        <p className="field-problem" role="alert">
          {said}
        </p>
      ) : null}
    </div>
  );
}
