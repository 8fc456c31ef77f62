import { useEffect, useId, useState } from 'react';
import { ApiFailure, apiRequest } from '../shared/api/request';
import type { ResumeAnswer, ResumeEntered, ResumeRequest } from '../shared/api/resume';
import { RESUME_API_PATH } from '../shared/api/resume-paths';
import type { InAppBrowser } from '../shared/in-app-browser';
import { isPlanId } from '../shared/plans/catalogue';
import type { ScreenId } from '../shared/screens';
import { emit } from './analytics/emit';
import { $map } from './stores/map';
import { $plans } from './stores/plans';
import { $signup } from './stores/signup';

export interface OpenInBrowserText {
  button: string;
  busy: string;
  /** iOS, once the link is on the clipboard: where to paste it. */
  copied: string;
  /** iOS, when the clipboard refused: the link is shown to copy by hand. */
  copyByHand: string;
  failed: string;
}

/**
 * The way out of an ad app's own browser (shared/in-app-browser.ts) that keeps the visitor's
 * progress: the worker makes a short-lived, single-use link (POST /api/resume) that opens this
 * screen in the real browser with the same visitor, variant, ad cookies and what was typed, and
 * after sign-up signed in to the same account.
 * Android opens it through an intent, which hands it to the visitor's default browser; iOS offers
 * no link an app's browser must follow outward, so the link goes to the clipboard with a line
 * saying where to paste it (or, if the clipboard refuses, is shown to copy by hand).
 * Offered, taken and (on the resumed page) completed are events of their own.
 */
export default function OpenInBrowser({
  screen,
  inApp,
  text,
}: {
  screen: ScreenId;
  inApp: InAppBrowser;
  text: OpenInBrowserText;
}) {
  const messageId = useId();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; link?: string } | null>(null);
  const facts = { app: inApp.app, os: inApp.os };

  // Stays an effect: it marks this island's own commit, the moment the offer is in the page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: offered once per page.
  useEffect(() => emit('in_app_escape_offered', facts), []);

  async function openInBrowser() {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    emit('in_app_escape_taken', facts);
    try {
      const url = await resumeLink(screen);
      if (inApp.os === 'android') {
        window.location.href = androidIntent(url);
      } else {
        setMessage(await pasteMessage(url, text));
      }
    } catch (error) {
      if (!(error instanceof ApiFailure)) console.warn('[open-in-browser]', error);
      setMessage({ text: text.failed });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="open-in-browser">
      <button
        type="button"
        className="open-in-browser__button"
        aria-busy={busy || undefined}
        aria-describedby={messageId}
        onClick={openInBrowser}
      >
        {busy ? text.busy : text.button}
      </button>
      <p id={messageId} className="open-in-browser__message" role="status">
        {message?.text}
        {message?.link ? (
          <>
            {' '}
            <a className="open-in-browser__link" href={message.link}>
              {message.link}
            </a>
          </>
        ) : null}
      </p>
    </div>
  );
}

/** A single-use link (POST /api/resume) that opens `screen` in the real browser. */
async function resumeLink(screen: ScreenId): Promise<string> {
  const { data } = await apiRequest<Partial<ResumeAnswer> | null>(RESUME_API_PATH, {
    body: {
      screen,
      search: window.location.search,
      entered: entered(),
      ...signedUpAs(),
    } satisfies ResumeRequest,
  });
  const url = data?.url;
  // Only a link of this site: whatever answered, the visitor is sent nowhere else.
  if (typeof url !== 'string' || !url.startsWith(`${window.location.origin}/`)) {
    throw new Error('the answer names no link of this site');
  }
  return url;
}

/** iOS: the link goes to the clipboard, or, if the clipboard refuses, is shown to copy by hand. */
async function pasteMessage(
  url: string,
  text: OpenInBrowserText,
): Promise<{ text: string; link?: string }> {
  try {
    await navigator.clipboard.writeText(url);
    return { text: text.copied };
  } catch {
    return { text: text.copyByHand, link: url };
  }
}

/** What the visitor entered on the way here that the next browser should not ask for again. */
function entered(): ResumeEntered {
  const { email, emailValidity } = $signup.get();
  const planId = $plans.get().plan;
  const phone = $map.get().phone;
  return {
    ...(email && emailValidity ? { email } : {}),
    ...(isPlanId(planId) ? { planId } : {}),
    ...(phone ? { phone } : {}),
  };
}

/**
 * After sign-up, the account's one-time login token, so the link signs the real browser in to
 * the same account (the worker takes it only beside its session cookie, and seals it).
 */
function signedUpAs(): Pick<ResumeRequest, 'loginToken'> {
  const { isSuccess, deeplinkToken } = $signup.get();
  return isSuccess && deeplinkToken ? { loginToken: deeplinkToken } : {};
}

/**
 * An Android intent for the link with no package named, so Android hands it to the default
 * browser rather than back to the app; a browser that cannot read intents goes to the link.
 */
export function androidIntent(url: string): string {
  const link = new URL(url);
  return `intent://${link.host}${link.pathname}${link.search}#Intent;scheme=${link.protocol.replace(':', '')};S.browser_fallback_url=${encodeURIComponent(url)};end`;
}
