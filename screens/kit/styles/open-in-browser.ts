/**
 * The way out of an ad app's browser (screens/kit/InAppWayOut.tsx): in the CSS of the screens
 * that offer it (the sign-up and plans screens), not the kit's, which every page inlines.
 */
export const OPEN_IN_BROWSER_CSS =
  '.in-app-way-out{margin:16px 0;text-align:center}' +
  '.in-app-way-out__note{color:var(--muted);font-size:14px;margin:0 0 8px}' +
  '.open-in-browser__button{min-height:44px;padding:0 16px;border:1.5px solid var(--brand);border-radius:12px;background:var(--surface);color:var(--ink);font:600 15px var(--font);cursor:pointer}' +
  '.open-in-browser__message{margin:8px 0 0;font-size:14px;overflow-wrap:anywhere}' +
  '.open-in-browser__message:empty{margin:0}';
