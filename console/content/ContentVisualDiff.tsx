import { useEffect, useState } from 'react';
import type { ContentDocument } from '../../shared/config/content';
import type { ScreenChange } from '../../shared/console-api/config';
import type { ContentPreviewRoute } from '../../shared/console-api/content';
import { editableScreenName } from '../kit/composed-screens';
import { languageName } from '../kit/content-text';
import { failureText } from '../kit/error-texts';
import { PreviewFrame } from '../kit/PreviewFrame';
import { useStore } from '../kit/stores/atom';
import { $draft } from '../kit/stores/draft';
import { $live } from '../kit/stores/live';
import type { Loaded } from '../kit/stores/loaded';
import { fetchContentPreview } from './content-api';
import { $contentCatalogue, $contentSelection } from './stores/content-editor';

/**
 * The review's visual diff (docs/marketers.md, "Review and publish"): each screen the publish
 * changes for some visitors, as the worker worked it out with the code the edge serves with
 * (CheckAnswer.screens), live and after publishing side by side at phone width, each drawn as
 * the route that serves it (its flow, plans and content variants), in the theme the editor shows
 * and the editor's language, or a language whose texts change when the editor's do not; each
 * drawn in any language on request. The console decides nothing of it: it draws what it is told.
 */
export function ContentVisualDiff({ screens }: { screens: readonly ScreenChange[] }) {
  if (screens.length === 0) return null;
  return (
    <div className="content-diff">
      <h4>How the screens change</h4>
      {screens.map((change) => (
        <ScreenDiff key={changeId(change)} change={change} />
      ))}
    </div>
  );
}

/** A change's own id among the review's: its screen and the variants either side shows. */
const changeId = (change: ScreenChange) =>
  `${change.screen}:${change.live?.variant ?? ''}:${change.draft.variant ?? ''}`;

type Drawn = Loaded<{ html: string }>;

/** `screen` drawn by the worker from `content` as `route` serves it; null content: nothing. */
function usePreview(
  screen: string,
  content: ContentDocument | null,
  route: ContentPreviewRoute | null,
  language: string,
): Drawn {
  const { theme } = useStore($contentSelection);
  const [drawn, setDrawn] = useState<Drawn>({ kind: 'loading' });
  const key = JSON.stringify([content, route]);
  useEffect(() => {
    const [asked, served] = JSON.parse(key) as [ContentDocument | null, ContentPreviewRoute];
    if (asked === null) return;
    let current = true;
    setDrawn({ kind: 'loading' });
    const request = { screen, language, theme, content: asked, route: served };
    void fetchContentPreview(request).then((answer) => {
      if (!current) return;
      if (answer.ok) setDrawn({ kind: 'ready', html: answer.value.html });
      else {
        const failure = answer.refusal.kind === 'failed' ? answer.refusal.failure : 'unreadable';
        setDrawn({ kind: 'failed', message: failureText(failure) });
      }
    });
    return () => {
      current = false;
    };
  }, [screen, language, theme, key]);
  return drawn;
}

/**
 * The language a screen's change is drawn in: the editor's, unless the change leaves its texts
 * alone and changes another language's, which is then the first drawn; the marketer picks any.
 */
function useDiffLanguage(change: ScreenChange) {
  const editing = useStore($contentSelection).language;
  const changed = change.languages;
  const first = changed.length === 0 || changed.includes(editing) ? editing : changed[0]!;
  const [picked, pick] = useState<string | null>(null);
  return { language: picked ?? first, changed, pick };
}

/** Which language a screen's change is drawn in, the languages whose texts change marked. */
function DiffLanguage(props: {
  id: string;
  name: string;
  language: string;
  changed: readonly string[];
  pick(language: string): void;
}) {
  const catalogue = useStore($contentCatalogue);
  const shipped = catalogue.kind === 'ready' ? catalogue.catalogue.languages : [];
  const languages = [...new Set([...props.changed, ...shipped, props.language])];
  return (
    <p className="content-diff__language">
      <label htmlFor={props.id}>Language of {props.name}</label>{' '}
      <select id={props.id} value={props.language} onChange={(e) => props.pick(e.target.value)}>
        {languages.map((code) => (
          <option key={code} value={code}>
            {languageName(code)}
            {props.changed.includes(code) ? ' (its texts change)' : ''}
          </option>
        ))}
      </select>
    </p>
  );
}

/** A list in words: "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Whose screen it is, as the worker found it: the routes (and the arm) that serve it, or none. */
function servedTo(change: ScreenChange): string {
  if (change.routes.length === 0) {
    return 'No route shows it yet: drawn as the route default would show it.';
  }
  const routes = `${change.routes.length === 1 ? 'route' : 'routes'} ${listed(change.routes)}`;
  const arm = change.arm ? ` in variant ${change.arm.variant} of ${change.arm.experiment}` : '';
  return `What visitors on ${routes}${arm} get, drawn as ${change.routes[0]} serves it.`;
}

/** What the live side is, when it shows another variant than the draft or none. */
function liveLabel(change: ScreenChange): string {
  const { live, draft } = change;
  if (!live || live.variant === draft.variant) return 'Live now';
  return live.variant === null
    ? 'Live now (the screen’s own content)'
    : `Live now (variant ${live.variant})`;
}

function ScreenDiff({ change }: { change: ScreenChange }) {
  const live = useStore($live);
  const draft = useStore($draft);
  const { language, changed, pick } = useDiffLanguage(change);
  const { screen } = change;
  const liveContent = live.kind === 'ready' && change.live ? live.state.live.content : null;
  const drafted = draft?.document.content ?? null;
  const before = usePreview(screen, liveContent, change.live?.route ?? null, language);
  const after = usePreview(screen, drafted, change.draft.route, language);
  const variant = change.draft.variant;
  const screenName = `${editableScreenName(drafted, screen)}${variant === null ? '' : `, variant ${variant}`}`;
  const name = `${screenName} in ${languageName(language)}`;
  return (
    <div>
      <h5 className="content-diff__screen">{name}</h5>
      <p className="muted">{servedTo(change)}</p>
      <DiffLanguage
        id={`diff-language:${changeId(change)}`}
        name={screenName}
        language={language}
        changed={changed}
        pick={pick}
      />
      <div className="content-diff__pair">
        {change.live ? (
          <DiffSide label={liveLabel(change)} drawn={before} title={`Live: ${name}`} />
        ) : (
          <figure className="content-diff__side">
            <figcaption>Live now</figcaption>
            <p className="muted">Not live yet: a new screen, which this publish adds.</p>
          </figure>
        )}
        <DiffSide label="After publishing" drawn={after} title={`Draft: ${name}`} />
      </div>
    </div>
  );
}

function DiffSide({ label, drawn, title }: { label: string; drawn: Drawn; title: string }) {
  return (
    <figure className="content-diff__side">
      <figcaption>{label}</figcaption>
      {drawn.kind === 'ready' ? (
        <PreviewFrame html={drawn.html} width="phone" title={title} />
      ) : (
        // The frame's own size while it is drawn or could not be: Publish, below, stays where
        // the marketer is aiming when the drawing arrives.
        <div className="content-diff__pending">
          {drawn.kind === 'loading' ? <p className="muted">Drawing…</p> : null}
          {drawn.kind === 'failed' ? <p className="notice notice--error">{drawn.message}</p> : null}
        </div>
      )}
    </figure>
  );
}
