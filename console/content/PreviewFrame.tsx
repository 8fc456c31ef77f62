import { useMemo } from 'react';

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
 * before any script, and nothing in it can act.
 */
export function PreviewFrame({
  html,
  width,
  title,
}: {
  html: string;
  width: 'phone' | 'desktop';
  title: string;
}) {
  const page = useMemo(() => staticPage(html), [html]);
  return (
    <div className={`preview-frame preview-frame--${width}`}>
      <iframe
        className="preview-frame__page"
        title={title}
        srcDoc={page}
        sandbox="allow-same-origin"
        width={width === 'phone' ? 390 : 1280}
        height={width === 'phone' ? 780 : 900}
      />
    </div>
  );
}
