import { useEffect, useState } from 'react';
import type { ContentDocument } from '../../shared/config/content';
import { failureText } from '../error-texts';
import { useStore } from '../stores/atom';
import { $contentSelection } from '../stores/content-editor';
import { $draft } from '../stores/draft';
import { $live } from '../stores/live';
import { fetchContentPreview } from './content-api';
import { languageName, screenName } from './content-text';
import { PreviewFrame } from './PreviewFrame';

/** The screens whose content differs between two documents. */
function changedScreens(before: ContentDocument, after: ContentDocument): string[] {
  const screens = new Set([...Object.keys(before.screens), ...Object.keys(after.screens)]);
  return [...screens].filter(
    (screen) =>
      JSON.stringify(before.screens[screen as keyof ContentDocument['screens']]) !==
      JSON.stringify(after.screens[screen as keyof ContentDocument['screens']]),
  );
}

/**
 * The review's visual diff: each screen whose content the publish changes, live and draft side
 * by side at phone width, in the language and theme the editor shows.
 */
export function ContentVisualDiff() {
  const live = useStore($live);
  const draft = useStore($draft);
  if (live.kind !== 'ready' || !draft) return null;
  const screens = changedScreens(live.state.live.content, draft.document.content);
  if (screens.length === 0) return null;
  return (
    <div className="content-diff">
      <h4>How the screens change</h4>
      {screens.map((screen) => (
        <ScreenDiff key={screen} screen={screen} />
      ))}
    </div>
  );
}

type Drawn =
  | { kind: 'loading' }
  | { kind: 'ready'; html: string }
  | { kind: 'failed'; message: string };

function usePreview(screen: string, content: ContentDocument | null): Drawn {
  const { language, theme } = useStore($contentSelection);
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

function ScreenDiff({ screen }: { screen: string }) {
  const live = useStore($live);
  const draft = useStore($draft);
  const { language } = useStore($contentSelection);
  const before = usePreview(screen, live.kind === 'ready' ? live.state.live.content : null);
  const after = usePreview(screen, draft?.document.content ?? null);
  const name = `${screenName(screen)} in ${languageName(language)}`;
  return (
    <div>
      <h5 className="content-diff__screen">{name}</h5>
      <div className="content-diff__pair">
        <DiffSide label="Live now" drawn={before} title={`Live: ${name}`} />
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
