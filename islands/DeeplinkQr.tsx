import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { QR_CODE_SIZE } from '../shared/qr-code-size';
import { useAfterHydration } from './kit/use-after-hydration';
import { loadDeeplink } from './signup/account-extras';
import { $signup } from './stores/signup';

export interface DeeplinkQrProps {
  /** The image's accessible name ('QR code to open the app, logged in'). */
  label: string;
  caption: string;
  /** Shown while the code is being fetched, or when there is none (no account here). */
  missing: string;
}

/**
 * The code this page draws itself from the app link, when the product API's is missing or will
 * not show (another host's image our policy refuses, a broken one). The QR library loads only
 * then, in a chunk of its own: a page whose code came with the link never fetches it. `#qr-code`
 * is shared/qr-code.ts, except on workerd, which renders this island but never draws.
 */
async function drawnCode(link: string): Promise<string> {
  const { qrCodeDataUrl } = await import('#qr-code');
  return qrCodeDataUrl(link);
}

/**
 * The success screen's QR code (SPEC.md §2): the image the product API gave with the app
 * deeplink, kept in $signup.deeplinkQR since sign-up, or one drawn here from the link itself
 * when it gave none that shows (SPEC.md §9: versions 1 to 40, 256 px). When the link is missing
 * (the call failed then, SPEC.md §4 only logs it), it is asked for again here.
 */
export default function DeeplinkQr({ label, caption, missing }: DeeplinkQrProps) {
  const mounted = useAfterHydration();
  const signup = useStore($signup);
  const [drawn, setDrawn] = useState<{ link: string; src: string } | null>(null);
  const [given, setGiven] = useState<'showing' | 'failed'>('showing');

  useEffect(() => {
    const { isSuccess, deeplinkUrl } = $signup.get();
    if (isSuccess && !deeplinkUrl) void loadDeeplink();
  }, []);

  const link = signup.deeplinkUrl;
  const needsDrawing = mounted && link !== '' && (!signup.deeplinkQR || given === 'failed');
  useEffect(() => {
    if (!needsDrawing || drawn?.link === link) return;
    let current = true;
    drawnCode(link).then(
      (src) => current && setDrawn({ link, src }),
      (error: unknown) => console.warn('[geofunnel] QR code not drawn', error),
    );
    return () => {
      current = false;
    };
  }, [needsDrawing, link, drawn]);

  let src = '';
  if (mounted) {
    if (needsDrawing) src = drawn?.link === link ? drawn.src : '';
    else src = signup.deeplinkQR;
  }
  return (
    <figure className="success__qr">
      {src ? (
        <img
          className="success__qr-image"
          src={src}
          alt={label}
          width={QR_CODE_SIZE}
          height={QR_CODE_SIZE}
          onError={() => setGiven('failed')}
        />
      ) : (
        <div className="success__qr-slot" role="img" aria-label={`${label}: ${missing}`} />
      )}
      <figcaption className="success__qr-caption">{caption}</figcaption>
    </figure>
  );
}
