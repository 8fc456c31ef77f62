import { type ReactNode, useEffect } from 'react';
import type { ContentCatalogue } from '../../shared/console-api/content';
import { asScreenContent, editableScreens, issuesThroughLens } from '../kit/composed-screens';
import { languageName, screenName } from '../kit/content-text';
import { FailureNotice } from '../kit/FailureNotice';
import { PageLink } from '../kit/PageLink';
import { PreviewFrame } from '../kit/PreviewFrame';
import { useStore } from '../kit/stores/atom';
import { $draft } from '../kit/stores/draft';
import { $review } from '../kit/stores/review';
import { BrandEditor } from './BrandEditor';
import { ContentIssues } from './ContentIssues';
import { ContentPickers } from './ContentPickers';
import { CopyFields } from './CopyFields';
import { addableSections, arrangementOf } from './content-edits';
import { pictureOf } from './content-picture';
import { contentView, previewedContent } from './content-variants';
import { InPlaceTexts } from './InPlaceTexts';
import { notesOfView } from './language-notes';
import { NewScreen } from './NewScreen';
import { PictureFields } from './PictureFields';
import { RatingFields } from './RatingFields';
import { SaveOfferEditor } from './SaveOfferEditor';
import { SectionList } from './SectionList';
import {
  $contentAnnouncement,
  $contentCatalogue,
  $contentLanguages,
  $contentPreview,
  $contentSelection,
  type ContentSelection,
  followPreview,
  select,
} from './stores/content-editor';
import { openContentEditor } from './stores/served-screen';

/**
 * The content editor: a screen's sections and copy (any screen made of sections, in code or
 * composed), edited into the console's draft beside a live preview of the draft drawn by the
 * worker's own page route, then reviewed and published with the rest of the config (Edit and
 * publish).
 */
export function ContentEditor({ screen = null }: { screen?: string | null }) {
  const state = useStore($contentCatalogue);
  const announcement = useStore($contentAnnouncement);
  // A screen's own page (/console/content/<screen>) edits that screen.
  useEffect(() => {
    void openContentEditor(screen);
  }, [screen]);
  return (
    <section className="section" id="content" aria-labelledby="content-title">
      <h2 id="content-title">Content</h2>
      <p className="muted">
        What each screen shows, from the landing to success: its sections, in order, and their copy
        in every language. Edits stay in the draft until you review and publish them under{' '}
        <PageLink area="publish">Edit and publish</PageLink>.
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {state.kind === 'loading' ? <p className="muted">Loading the screens…</p> : null}
      {state.kind === 'failed' ? <FailureNotice message={state.message} /> : null}
      {state.kind === 'ready' ? <Editor catalogue={state.catalogue} /> : null}
      <BrandEditor />
      {state.kind === 'ready' ? <SaveOfferEditor languages={state.catalogue.languages} /> : null}
    </section>
  );
}

function Editor({ catalogue }: { catalogue: ContentCatalogue }) {
  const selection = useStore($contentSelection);
  const draft = useStore($draft);
  const preview = useStore($contentPreview);
  const answered = useStore($contentLanguages);
  const review = useStore($review);
  useEffect(() => followPreview(), []);
  const drafted = draft?.document.content ?? null;
  const screen = editableScreens(catalogue, drafted).find((s) => s.id === selection.screen);
  if (!drafted || !screen) return null;
  // What the marketer edits: what every visitor sees, or the chosen variant's view of it (a
  // composed screen's own content seen as a screen's, ../kit/composed-screens.ts).
  const lensed = asScreenContent(drafted, screen.id);
  const content = contentView(lensed, screen.id, selection.variant);
  const drawn = previewedContent(lensed, screen.id, selection.variant);
  const rows = arrangementOf(content, screen);
  const section = selection.section ?? screen.composition[0] ?? '';
  const at = `content.screens.${screen.id}`;
  const reviewed = review.kind === 'invalid' ? review.errors : [];
  const found = [...(preview.kind === 'ready' ? preview.issues : []), ...reviewed];
  const issues = issuesThroughLens(drafted, screen.id, found).filter(
    (issue, index, all) =>
      (issue.path === at || issue.path.startsWith(`${at}.`)) &&
      all.findIndex((o) => o.path === issue.path && o.message === issue.message) === index,
  );
  const notes = notesOfView(drafted, screen.id, selection.variant, answered);
  return (
    <>
      <ContentPickers catalogue={catalogue} />
      <NewScreen catalogue={catalogue} />
      <div className="content-editor">
        <div className="content-editor__fields">
          <ContentIssues screen={screen} issues={issues} notes={notes} />
          <SectionList screen={screen} rows={rows} addable={addableSections(content, screen)} />
          {section === 'picture' ? (
            <PictureFields
              catalogue={catalogue}
              picture={pictureOf(content, screen.id)}
              issues={issues}
            />
          ) : (
            <CopyFields
              catalogue={catalogue}
              screen={screen}
              section={section}
              language={selection.language}
              content={content}
              issues={issues}
              notes={notes}
            />
          )}
          {section === 'reviews' ? (
            <RatingFields
              key={screen.id}
              screen={screen.id}
              rating={lensed.screens[screen.id as keyof typeof lensed.screens]?.rating}
              issues={issues}
            />
          ) : null}
        </div>
        <ContentPreviewPane
          title={previewTitle(screen.id, selection)}
          overlay={(frame, loads) => (
            <InPlaceTexts
              frame={frame}
              loads={loads}
              catalogue={catalogue}
              screen={screen}
              language={selection.language}
              drawn={drawn}
              issues={issues}
            />
          )}
        />
      </div>
    </>
  );
}

/** What the preview shows, said in its frame's title: screen, variant, route, country, language. */
function previewTitle(screen: string, selection: ContentSelection): string {
  const { variant, route, country, language } = selection;
  const parts = [
    screenName(screen),
    variant ? `variant ${variant}` : null,
    route ? `as route ${route} shows it` : null,
    country ? `to a visitor from ${country}` : null,
  ];
  return `${parts.filter(Boolean).join(', ')}, in ${languageName(language)}`;
}

function ContentPreviewPane({
  title,
  overlay,
}: {
  title: string;
  overlay: (frame: HTMLIFrameElement, loads: number) => ReactNode;
}) {
  const selection = useStore($contentSelection);
  const preview = useStore($contentPreview);
  const html = preview.kind === 'ready' || preview.kind === 'loading' ? preview.html : null;
  const width = selection.width;
  return (
    <div className="content-editor__preview">
      <div className="content-editor__preview-head">
        <h3 id="content-preview-title">Preview of the draft</h3>
        <fieldset className="segmented">
          <legend className="visually-hidden">Preview width</legend>
          {(['phone', 'desktop'] as const).map((option) => (
            <button
              key={option}
              type="button"
              className="button button--small"
              aria-pressed={width === option}
              onClick={() => select({ width: option })}
            >
              {option === 'phone' ? 'Phone (390 px)' : 'Desktop (1280 px)'}
            </button>
          ))}
        </fieldset>
      </div>
      <p className="muted" role="status">
        {preview.kind === 'loading' ? 'Drawing the preview…' : ''}
        {preview.kind === 'failed' ? preview.message : ''}
      </p>
      <p className="muted" id="in-place-hint">
        Click a text in the preview, or Tab to it and press Enter, to edit it there.
      </p>
      {html ? (
        <PreviewFrame
          html={html}
          width={width}
          title={`Preview: ${title}, ${width === 'phone' ? 'phone' : 'desktop'} width`}
          overlay={overlay}
        />
      ) : null}
    </div>
  );
}
