import { map, onMount, onNotify } from 'nanostores';
import { loadDeeplink } from '../signup/account-extras';
import { browserOnly } from './browser-only';
import { $signup } from './signup';

/** The success screen's QR code: `src` is the image shown, '' while there is none to show. */
export interface DeeplinkQrState {
  src: string;
  /** The product API's image did not show (another host's our policy refuses, a broken one). */
  givenFailed: boolean;
}

export type DeeplinkQrStore = ReturnType<typeof deeplinkQrStore>;

/**
 * The code this page draws itself from the app link, when the product API's is missing or will
 * not show. The QR library loads only then, in a chunk of its own: a page whose code came with
 * the link never fetches it, and the worker, which renders the island but never draws, carries
 * none of it (`#browser-only/*`, islands/browser-only-on-worker.ts).
 */
async function drawnCode(link: string): Promise<string> {
  const { qrCodeDataUrl } = await import('#browser-only/shared/qr-code');
  return qrCodeDataUrl(link);
}

/**
 * The success screen's QR code (SPEC.md §2): the image the product API gave with the app
 * deeplink, kept in $signup.deeplinkQR since sign-up, or one drawn here from the link itself
 * when it gave none that shows (SPEC.md §9: versions 1 to 40, 256 px). The server and the first
 * client render show none: the link lives in the browser's storage. Once the island listens
 * (islands/kit/use-working-store.ts) a missing link (the call failed at sign-up, SPEC.md §4 only
 * logs it) is asked for again, and the code follows the link.
 */
export function deeplinkQrStore() {
  const $qr = browserOnly(map<DeeplinkQrState>({ src: '', givenFailed: false }), 'deeplink QR');
  onMount($qr, () => {
    const { isSuccess, deeplinkUrl } = $signup.get();
    if (isSuccess && !deeplinkUrl) void loadDeeplink();
    return followLink($qr);
  });
  return $qr;
}

/** The product API's image did not load: the code is drawn from the link instead. */
export function deeplinkImageFailed($qr: DeeplinkQrStore): void {
  $qr.setKey('givenFailed', true);
}

/**
 * Shows the code for the stored link while the store is listened to: the given image, or the
 * one drawn from the link when the given one will not do. Returns the stop: nothing is written
 * after it.
 */
function followLink($qr: DeeplinkQrStore): () => void {
  // The link drawn or being drawn, with its image once drawn.
  let drawing: { link: string; src: string } | null = null;
  const show = () => {
    const { deeplinkUrl: link, deeplinkQR: given } = $signup.get();
    if (link === '' || (given && !$qr.get().givenFailed)) return $qr.setKey('src', given);
    if (drawing?.link === link) return $qr.setKey('src', drawing.src);
    $qr.setKey('src', '');
    const started = { link, src: '' };
    drawing = started;
    drawnCode(link).then(
      (src) => {
        started.src = src;
        if (drawing === started) $qr.setKey('src', src);
      },
      (error: unknown) => console.warn('[geofunnel] QR code not drawn', error),
    );
  };
  show();
  const unlisten = $signup.listen(show);
  const unbind = onNotify($qr, ({ changed }) => {
    if (changed === 'givenFailed') show();
  });
  return () => {
    unlisten();
    unbind();
    drawing = null;
  };
}
