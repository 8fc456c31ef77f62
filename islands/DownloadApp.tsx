import type { FormEvent } from 'react';

export interface DownloadAppProps {
  /** Where the form posts without JavaScript: the screen's own path and query. */
  action: string;
  label: string;
  appStoreHref: string;
  googlePlayHref: string;
}

/** Apple devices get the App Store (iPadOS calls itself Macintosh); everyone else Google Play. */
export function storeFor(userAgent: string): 'appStore' | 'googlePlay' {
  return /iPhone|iPad|iPod|Macintosh/.test(userAgent) ? 'appStore' : 'googlePlay';
}

/**
 * The success screen's download button (SPEC.md §2), which is its Continue. The success screen
 * ends the flow, so the form names no next screen (`data-next`); once the island has mounted, a
 * press opens the store of the visitor's phone instead. Without JavaScript the form posts and
 * the worker shows the screen again, where the store badges still link to both stores. The
 * deeplink of the later issue replaces the store.
 */
export default function DownloadApp({
  action,
  label,
  appStoreHref,
  googlePlayHref,
}: DownloadAppProps) {
  function openStore(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const store = storeFor(navigator.userAgent);
    window.location.assign(store === 'appStore' ? appStoreHref : googlePlayHref);
  }
  return (
    <form method="post" action={action} className="continue-form" onSubmit={openStore}>
      <button id="continue-button" type="submit" className="button button--primary">
        {label}
      </button>
    </form>
  );
}
