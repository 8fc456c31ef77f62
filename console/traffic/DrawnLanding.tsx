import { useEffect, useState } from 'react';
import type { ContentDocument } from '../../shared/config/content';
import type { RouteTestAnswer } from '../../shared/console-api/routes';
import { DEFAULT_THEME } from '../../shared/theme';
import { fetchContentPreview } from '../content/content-api';
import { FailureNotice } from '../kit/FailureNotice';
import { PreviewFrame } from '../kit/PreviewFrame';
import { type Loaded, refusalText } from '../kit/stores/loaded';

/**
 * The landing a tested visitor opens with, drawn by the worker from the draft's content as their
 * route serves it (the content preview, worker/console/content-route.ts: the page route and its
 * renderer, fed the draft), so a route, flow or composed landing the draft adds is seen before it
 * is published, as the preview link cannot show it (that opens the live funnel).
 */
export function DrawnLanding({
  answer,
  content,
  language,
  country,
}: {
  answer: RouteTestAnswer;
  content: ContentDocument;
  language: string;
  country: string | null;
}) {
  const ref = answer.gets.landing?.ref ?? null;
  const [drawn, setDrawn] = useState<Loaded<{ html: string }>>({ kind: 'loading' });
  const key = JSON.stringify([ref, content, answer.previewRoute, language, country]);
  useEffect(() => {
    const [screen, asked, route, lang, from] = JSON.parse(key) as [
      string | null,
      ContentDocument,
      RouteTestAnswer['previewRoute'],
      string,
      string | null,
    ];
    if (screen === null) return;
    let current = true;
    setDrawn({ kind: 'loading' });
    void fetchContentPreview({
      screen,
      language: lang,
      theme: DEFAULT_THEME,
      content: asked,
      route,
      country: from,
    }).then((drawing) => {
      if (!current) return;
      setDrawn(
        drawing.ok
          ? { kind: 'ready', html: drawing.value.html }
          : { kind: 'failed', message: refusalText(drawing.refusal) },
      );
    });
    return () => {
      current = false;
    };
  }, [key]);
  if (ref === null) return null;
  if (drawn.kind === 'loading') return <p className="muted">Drawing the landing {ref}…</p>;
  if (drawn.kind === 'failed') return <FailureNotice message={drawn.message} />;
  return (
    <>
      <p className="muted">
        The landing {ref} from your draft, as this visitor would see it once published; the preview
        link opens what is live.
      </p>
      <PreviewFrame
        html={drawn.html}
        width="phone"
        title={`The landing ${ref} as this visitor sees it, from your draft`}
      />
    </>
  );
}
