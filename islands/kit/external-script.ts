/** SPEC.md §4: an external script is idle, loading, ready or in error. */
export type ExternalScriptStatus = 'idle' | 'loading' | 'ready' | 'error';

const loads = new Map<string, Promise<void>>();

/**
 * Adds `<script src async>` once per URL and resolves when it has run, rejecting when it cannot
 * load (offline, blocked). Created by our own nonce'd module, so the page's CSP admits it through
 * 'strict-dynamic'. A failed load is forgotten, so a later call tries again.
 */
export function loadExternalScript(src: string, doc: Document = document): Promise<void> {
  const known = loads.get(src);
  if (known) return known;
  const script = doc.createElement('script');
  script.src = src;
  script.async = true;
  const load = new Promise<void>((resolve, reject) => {
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () => {
      if (loads.get(src) === load) loads.delete(src);
      script.remove();
      reject(new Error(`${src} did not load`));
    });
  });
  // Known before the tag is added: a load that fails at once is forgotten, not kept.
  loads.set(src, load);
  doc.head.appendChild(script);
  return load;
}
