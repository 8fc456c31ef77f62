import { type ReactNode, useMemo, useState } from 'react';

/**
 * The page without its scripts and their preloads: the frame would refuse to run them anyway,
 * and say so in the console once a script. Parsed, not run: DOMParser executes nothing.
 */
function staticPage(html: string): string {
  const page = new DOMParser().parseFromString(html, 'text/html');
  for (const node of page.querySelectorAll('script, link[rel="modulepreload"]')) node.remove();
  return `<!doctype html>${page.documentElement.outerHTML}`;
}

/**
 * A screen's page as the worker drew it, in a frame the width of a phone (390 px) or of a
 * desktop (1280 px, scaled down to fit). The frame runs no script and submits no form
 * (`sandbox` without either): it shows the page's HTML and CSS, as a visitor sees it painted
 * before any script, and nothing in it can act. `overlay` draws the console's own controls over
 * it (../content/InPlaceTexts.tsx), given the frame once it has loaded: the console may read the
 * page (same origin), the page can reach nothing of the console's (it runs no script).
 */
export function PreviewFrame({
  html,
  width,
  title,
  overlay,
}: {
  html: string;
  width: 'phone' | 'desktop';
  title: string;
  overlay?: (frame: HTMLIFrameElement, loads: number) => ReactNode;
}) {
  const page = useMemo(() => staticPage(html), [html]);
  const [frame, setFrame] = useState<HTMLIFrameElement | null>(null);
  const [loads, setLoads] = useState(0);
  return (
    <div className={`preview-frame preview-frame--${width}`}>
      <div className="preview-frame__stage">
        <iframe
          ref={setFrame}
          className="preview-frame__page"
          title={title}
          srcDoc={page}
          sandbox="allow-same-origin"
          width={width === 'phone' ? 390 : 1280}
          height={width === 'phone' ? 780 : 900}
          onLoad={() => setLoads((count) => count + 1)}
        />
        {overlay && frame && loads > 0 ? overlay(frame, loads) : null}
      </div>
    </div>
  );
}
