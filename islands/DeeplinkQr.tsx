import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
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
 * The success screen's QR code (SPEC.md §2): the portal's SVG of the app deeplink, kept in
 * $signup.deeplinkQR since sign-up. When it is missing (the call failed then, SPEC.md §4 only
 * logs it), it is asked for again here. No QR library reaches the page.
 */
export default function DeeplinkQr({ label, caption, missing }: DeeplinkQrProps) {
  const mounted = useAfterHydration();
  const signup = useStore($signup);

  useEffect(() => {
    const { isSuccess, deeplinkQR } = $signup.get();
    if (isSuccess && !deeplinkQR) void loadDeeplink();
  }, []);

  const qr = mounted ? signup.deeplinkQR : '';
  return (
    <figure className="success__qr">
      {qr ? (
        <img className="success__qr-image" src={qr} alt={label} width={200} height={200} />
      ) : (
        <div className="success__qr-slot" role="img" aria-label={`${label}: ${missing}`} />
      )}
      <figcaption className="success__qr-caption">{caption}</figcaption>
    </figure>
  );
}
