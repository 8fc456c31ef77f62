import { useEffect, useState } from 'react';
import type { ContentDocument } from '../../shared/config/content';
import type { FieldError } from '../../shared/console-api/errors';
import { THEMES, type Theme } from '../../shared/theme';
import { languageName } from '../kit/content-text';
import { PreviewFrame } from '../kit/PreviewFrame';
import { nameOptions, SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import { $draft, editContent } from '../kit/stores/draft';
import { refusalText } from '../kit/stores/loaded';
import { $review } from '../kit/stores/review';
import { CheckedField } from './CheckedField';
import { fetchSaveOfferPreview } from './content-api';
import { SaveOfferActionFields } from './SaveOfferAction';
import { SaveOfferReasons } from './SaveOfferReasons';
import { SaveOfferVersions } from './SaveOfferVersions';
import {
  type OfferField,
  type OfferVersion,
  offeredLanguages,
  offerVariantNames,
  withOfferText,
} from './save-offer-edits';

/**
 * The save offer before a cancel (docs/marketers.md, "The save offer before a cancel"): a title
 * and a text per language, shown on the subscriber's one confirm above the cancel, what it does
 * with one tap, and the reasons for leaving the confirm asks, beside a live preview of that
 * confirm drawn by the subscriber's page's own code. Edits go into the draft and are reviewed
 * and published with the rest; the check's refusals show at their field.
 */

/** How long typing rests before the preview is drawn again. */
const PREVIEW_DELAY_MS = 350;

/** Each text's limit (shared/config/content.ts `offerText`). */
const OFFER_MAX = 500;

type OfferPreview =
  | { kind: 'none' }
  | { kind: 'loading' }
  | { kind: 'ready'; html: string }
  | { kind: 'refused'; errors: FieldError[] }
  | { kind: 'failed'; message: string };

/**
 * The confirm as the worker draws it with the draft's offer, drawn again as the draft changes;
 * none while the draft has no offer (the confirm is then the one in code, asked of no one).
 */
function useOfferPreview(
  content: ContentDocument | null,
  language: string,
  theme: Theme,
  version: OfferVersion,
) {
  const [preview, setPreview] = useState<OfferPreview>({ kind: 'none' });
  const offer = content?.saveOffer;
  const brands = content?.brands;
  useEffect(() => {
    if (!offer) {
      setPreview({ kind: 'none' });
      return;
    }
    setPreview((shown) => (shown.kind === 'ready' ? shown : { kind: 'loading' }));
    let current = true;
    const timer = setTimeout(async () => {
      // Only what the confirm shows: the offer and the theme's brand, not every screen's content.
      const drawn: ContentDocument = { screens: {}, ...(brands ? { brands } : {}) };
      const answer = await fetchSaveOfferPreview({
        language,
        theme,
        content: { ...drawn, saveOffer: offer },
        ...(version === null ? {} : { variant: version }),
      });
      if (!current) return;
      if (answer.ok) setPreview({ kind: 'ready', html: answer.value.html });
      else if (answer.refusal.kind === 'invalid') {
        setPreview({ kind: 'refused', errors: answer.refusal.errors });
      } else setPreview({ kind: 'failed', message: refusalText(answer.refusal) });
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [offer, brands, language, theme, version]);
  return preview;
}

/** Who sees the offer, said under the fields. */
function offeredText(content: ContentDocument): string {
  const languages = offeredLanguages(content);
  if (languages.length === 0) {
    return 'No subscriber sees an offer: a language shows one once it has a title and a text.';
  }
  return `Shown to subscribers reading ${languages.map(languageName).join(', ')}.`;
}

/**
 * The offer's or a variant's title or text in one language, with the check's refusal beside it;
 * a variant's field shows the offer's words as its placeholder, which it shows where it writes
 * none.
 */
function OfferText(props: {
  field: OfferField;
  label: string;
  content: ContentDocument;
  language: string;
  version: OfferVersion;
  errors: readonly FieldError[];
}) {
  const { field, content, language, version } = props;
  const id = `save-offer-${field}`;
  const own = content.saveOffer?.[field][language] ?? '';
  const value =
    version === null ? own : (content.saveOffer?.variants?.[version]?.[field]?.[language] ?? '');
  const where = version === null ? '' : `variants.${version}.`;
  const path = `content.saveOffer.${where}${field}.${language}`;
  const problem = props.errors.find((e) => e.path === path);
  const edit = (event: { target: { value: string } }) =>
    editContent((drafted) => withOfferText(drafted, field, language, event.target.value, version));
  const shown = {
    id,
    className: 'input',
    value,
    onChange: edit,
    placeholder: version === null ? undefined : own,
  };
  return (
    <CheckedField
      id={id}
      label={`${props.label} in ${languageName(language)} (at most ${OFFER_MAX} characters)`}
      problem={problem?.message}
      control={(aria) =>
        field === 'title' ? (
          <input {...shown} {...aria} />
        ) : (
          <textarea rows={4} {...shown} {...aria} />
        )
      }
    />
  );
}

/** The theme to preview in, what the preview is doing, and the confirm once drawn. */
function OfferPreviewPanel(props: {
  preview: OfferPreview;
  language: string;
  theme: Theme;
  onTheme(theme: Theme): void;
}) {
  const { preview, language, theme } = props;
  return (
    <>
      <SelectField
        id="save-offer-theme"
        label="Preview in the theme"
        value={theme}
        onChange={(value) => props.onTheme(value as Theme)}
      >
        {nameOptions(THEMES)}
      </SelectField>
      <p className="muted" role="status">
        {preview.kind === 'none' ? 'The preview shows the confirm once the offer has a text.' : ''}
        {preview.kind === 'loading' ? 'Drawing the preview…' : ''}
        {preview.kind === 'failed' ? preview.message : ''}
        {preview.kind === 'refused' ? 'The preview waits for the refusals above.' : ''}
      </p>
      {preview.kind === 'ready' ? (
        <PreviewFrame
          html={preview.html}
          width="phone"
          title={`Preview: the cancel confirm in ${languageName(language)}, ${theme}, phone width`}
        />
      ) : null}
    </>
  );
}

/**
 * The save offer editor of the content area: the offer's and its variants' texts per language
 * and actions, the offer's reasons for leaving, the languages that show it, and the preview of
 * the confirm.
 */
export function SaveOfferEditor({ languages }: { languages: readonly string[] }) {
  const draft = useStore($draft);
  const review = useStore($review);
  const [language, setLanguage] = useState(languages[0] ?? 'en');
  const [theme, setTheme] = useState<Theme>(THEMES[0]);
  const [picked, setVersion] = useState<OfferVersion>(null);
  const content = draft?.document.content ?? null;
  // A variant the draft no longer has (undone, removed) leaves the editor on the offer.
  const version =
    content && picked !== null && offerVariantNames(content).includes(picked) ? picked : null;
  const preview = useOfferPreview(content, language, theme, version);
  if (!content) return null;
  const errors = [
    ...(review.kind === 'invalid' ? review.errors : []),
    ...(preview.kind === 'refused' ? preview.errors : []),
  ];
  return (
    <fieldset className="content-copy save-offer-editor">
      <legend>Save offer before a cancel</legend>
      <p className="muted">
        Words and Keep my subscription above the subscriber’s one confirm, once; the cancel stays
        one tap away. Promise only what the offer’s action does, or what your team will honour by
        hand.
      </p>
      <SelectField
        id="save-offer-language"
        label="Write the offer in"
        value={language}
        onChange={setLanguage}
      >
        {nameOptions(languages, languageName)}
      </SelectField>
      <SaveOfferVersions version={version} onVersion={setVersion} />
      {version === null ? null : (
        <p className="muted">
          Variant {version} shows the offer’s title and text wherever it leaves one empty, and does
          what the offer does unless it is given an action of its own.
        </p>
      )}
      <OfferText field="title" label="Title" {...{ content, language, version, errors }} />
      <OfferText field="text" label="Text" {...{ content, language, version, errors }} />
      <SaveOfferActionFields {...{ content, version, errors }} />
      {version === null ? <SaveOfferReasons {...{ content, language, errors }} /> : null}
      <p role="status">{offeredText(content)}</p>
      <OfferPreviewPanel {...{ preview, language, theme }} onTheme={setTheme} />
    </fieldset>
  );
}
