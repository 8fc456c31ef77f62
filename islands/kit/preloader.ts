export const PRELOADER_CLASS = 'preloader';

/** SPEC.md §9: the preloader is removed 1 s after load. */
export const PRELOADER_REMOVE_AFTER_LOAD_MS = 1000;

/**
 * Fades the start-up preloader (0.2 s, CSS) once the page has loaded and removes it from the
 * document 1 s after the load event (SPEC.md §2, §9). Safe to call after load has fired.
 */
export function removePreloaderAfterLoad(doc: Document = document): void {
  const win = doc.defaultView;
  if (!win) return;
  const remove = () => {
    const preloader = doc.querySelector(`.${PRELOADER_CLASS}`);
    preloader?.classList.add(`${PRELOADER_CLASS}--done`);
    win.setTimeout(() => preloader?.remove(), PRELOADER_REMOVE_AFTER_LOAD_MS);
  };
  if (doc.readyState === 'complete') remove();
  else win.addEventListener('load', remove, { once: true });
}
