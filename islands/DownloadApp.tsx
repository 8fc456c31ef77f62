import type { FormEvent } from 'react';
import { ContinueButton } from './kit/ContinueButton';
import { $signup } from './stores/signup';

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
 * press opens the app's deeplink (the app, logged in, or its store page), kept in
 * $signup.deeplinkUrl since sign-up; without one, the store of the visitor's phone. Without
 * JavaScript the form posts and the worker shows the screen again, where the store badges still
 * link to both stores.
 */
export default function DownloadApp({
  action,
  label,
  appStoreHref,
  googlePlayHref,
}: DownloadAppProps) {
  function openStore(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const deeplink = $signup.get().deeplinkUrl;
    if (/^https?:\/\//.test(deeplink)) {
      window.location.assign(deeplink);
      return;
    }
    const store = storeFor(navigator.userAgent);
    window.location.assign(store === 'appStore' ? appStoreHref : googlePlayHref);
  }
  return (
    <form method="post" action={action} className="continue-form" onSubmit={openStore}>
      <ContinueButton label={label} />
    </form>
  );
}
