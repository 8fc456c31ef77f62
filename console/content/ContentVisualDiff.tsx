import { useEffect, useState } from 'react';
import type { ContentDocument } from '../../shared/config/content';
import { editableScreenName, throughComposed } from '../kit/composed-screens';
import { languageName } from '../kit/content-text';
import { failureText } from '../kit/error-texts';
import { useStore } from '../kit/stores/atom';
import { $draft } from '../kit/stores/draft';
import { $live } from '../kit/stores/live';
import type { Loaded } from '../kit/stores/loaded';
import { fetchContentPreview } from './content-api';
import { type ContentChange, changedLanguages, contentChanges } from './content-changes';
import { previewedContent } from './content-variants';
import { PreviewFrame } from './PreviewFrame';
import { $contentCatalogue, $contentSelection } from './stores/content-editor';

/**
 * The review's visual diff: each screen whose content the publish changes, and each content
 * variant it adds or changes, live and draft side by side at phone width, in the theme the editor
 * shows and the editor's language, or a language whose texts change when the editor's do not;
 * each drawn in any language on request. A screen the publish composes is drawn after publishing only, named by
 * its id and what it starts from.
 */
export function ContentVisualDiff() {
  const live = useStore($live);
  const draft = useStore($draft);
  if (live.kind !== 'ready' || !draft) return null;
  const changes = contentChanges(live.state.live.content, draft.document.content);
  if (changes.length === 0) return null;
  return (
    <div className="content-diff">
      <h4>How the screens change</h4>
      {changes.map((change) => (
        <ScreenDiff key={`${change.screen}:${change.variant ?? ''}`} change={change} />
      ))}
    </div>
  );
}

type Drawn = Loaded<{ html: string }>;

function usePreview(screen: string, content: ContentDocument | null, language: string): Drawn {
  const { theme } = useStore($contentSelection);
  const [drawn, setDrawn] = useState<Drawn>({ kind: 'loading' });
  const key = JSON.stringify(content);
  useEffect(() => {
    if (key === 'null') return;
    let current = true;
    setDrawn({ kind: 'loading' });
    const request = { screen, language, theme, content: JSON.parse(key) as ContentDocument };
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
 * `content` as the screen's visitors of `variant` see it (a composed screen's own variant laid
 * over it through the lens, as the editor's preview does); null: nothing to draw.
 */
function shown(content: ContentDocument | null, screen: string, variant: string | null) {
  if (!content) return null;
  return throughComposed(content, screen, (view) => previewedContent(view, screen, variant));
}

/**
 * The language a screen's change is drawn in: the editor's, unless the change leaves its texts
 * alone and changes another language's, which is then the first drawn; the marketer picks any.
 */
function useDiffLanguage(change: ContentChange) {
  const live = useStore($live);
  const draft = useStore($draft);
  const editing = useStore($contentSelection).language;
  const changed =
    live.kind === 'ready' && draft
      ? changedLanguages(live.state.live.content, draft.document.content, change)
      : [];
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

function ScreenDiff({ change }: { change: ContentChange }) {
  const live = useStore($live);
  const draft = useStore($draft);
  const { language, changed, pick } = useDiffLanguage(change);
  const { screen, variant, added, newScreen } = change;
  const liveContent = live.kind === 'ready' && !newScreen ? live.state.live.content : null;
  const drafted = draft?.document.content ?? null;
  const before = usePreview(screen, shown(liveContent, screen, variant), language);
  const after = usePreview(screen, shown(drafted, screen, variant), language);
  const shownTo = variant === null ? '' : `, variant ${variant}`;
  const screenName = `${editableScreenName(drafted, screen)}${shownTo}`;
  const name = `${screenName} in ${languageName(language)}`;
  return (
    <div>
      <h5 className="content-diff__screen">{name}</h5>
      <DiffLanguage
        id={`diff-language:${screen}:${variant ?? ''}`}
        name={screenName}
        language={language}
        changed={changed}
        pick={pick}
      />
      <div className="content-diff__pair">
        {newScreen ? (
          <figure className="content-diff__side">
            <figcaption>Live now</figcaption>
            <p className="muted">Not live yet: a new screen, which this publish adds.</p>
          </figure>
        ) : (
          <DiffSide
            label={added ? 'Live now (no such variant yet: the screen as it is)' : 'Live now'}
            drawn={before}
            title={`Live: ${name}`}
          />
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
      {drawn.kind === 'loading' ? <p className="muted">Drawing…</p> : null}
      {drawn.kind === 'failed' ? <p className="notice notice--error">{drawn.message}</p> : null}
      {drawn.kind === 'ready' ? (
        <PreviewFrame html={drawn.html} width="phone" title={title} />
      ) : null}
    </figure>
  );
}
