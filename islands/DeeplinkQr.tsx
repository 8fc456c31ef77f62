import { useState } from 'react';
import { QR_CODE_SIZE } from '../shared/qr-code-size';
import { useWorkingStore } from './kit/use-working-store';
import { deeplinkImageFailed, deeplinkQrStore } from './stores/deeplink-qr';

export interface DeeplinkQrProps {
  /** The image's accessible name ('QR code to open the app, logged in'). */
  label: string;
  caption: string;
  /** Shown while the code is being fetched, or when there is none (no account here). */
  missing: string;
}

/**
 * The success screen's QR code (SPEC.md §2): the product API's image, or one drawn from the app
 * link; which one, and asking for a missing link again, is its store's work
 * (./stores/deeplink-qr.ts).
 */
export default function DeeplinkQr({ label, caption, missing }: DeeplinkQrProps) {
  const [$qr] = useState(deeplinkQrStore);
  const { src } = useWorkingStore($qr);
  return (
    <figure className="success__qr">
      {src ? (
        <img
          className="success__qr-image"
          src={src}
          alt={label}
          width={QR_CODE_SIZE}
          height={QR_CODE_SIZE}
          onError={() => deeplinkImageFailed($qr)}
        />
      ) : (
        <div className="success__qr-slot" role="img" aria-label={`${label}: ${missing}`} />
      )}
      <figcaption className="success__qr-caption">{caption}</figcaption>
    </figure>
  );
}
