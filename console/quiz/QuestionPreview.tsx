import { useEffect, useState } from 'react';
import type { ContentDocument } from '../../shared/config/content';
import { DEFAULT_THEME } from '../../shared/theme';
import { fetchContentPreview } from '../content/content-api';
import { PreviewFrame } from '../kit/PreviewFrame';

/** How long typing rests before the preview is asked again. */
const PREVIEW_DELAY_MS = 400;

type Preview = { kind: 'loading' } | { kind: 'ready'; html: string } | { kind: 'failed' };

/**
 * The question as a visitor's phone shows it, drawn by the worker's own page route from the
 * draft (the content editor's preview: nothing counted, nothing kept), in English, asked again
 * as the marketer edits.
 */
export function QuestionPreview({ id, content }: { id: string; content: ContentDocument }) {
  const [preview, setPreview] = useState<Preview>({ kind: 'loading' });
  useEffect(() => {
    let current = true;
    const timer = setTimeout(async () => {
      const answer = await fetchContentPreview({
        screen: id,
        language: 'en',
        theme: DEFAULT_THEME,
        content,
      });
      if (!current) return;
      setPreview(answer.ok ? { kind: 'ready', html: answer.value.html } : { kind: 'failed' });
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [id, content]);
  return (
    <div className="quiz-preview">
      <h3>Preview</h3>
      {preview.kind === 'loading' ? <p className="muted">Drawing the question…</p> : null}
      {preview.kind === 'failed' ? (
        <p className="muted">The preview could not be drawn: the draft may hold a refused field.</p>
      ) : null}
      {preview.kind === 'ready' ? (
        <PreviewFrame html={preview.html} width="phone" title={`Preview of ${id}`} />
      ) : null}
    </div>
  );
}
