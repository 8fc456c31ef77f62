import type { TFunction } from 'i18next';
import { IN_APP_NAMES, type InAppBrowser } from '../../shared/in-app-browser';
import { type DrawnScreen, isScreenId } from '../../shared/screens';
import { Island } from '../layout/Island';

/**
 * Inside an ad app's own browser: what this browser cannot do here, said in one line, and the
 * way out to the visitor's real browser with their progress kept (islands/OpenInBrowser.tsx).
 * Without script the button does nothing, so it is shown only once the island has hydrated.
 * The sign-up and the checkouts offer it; a quiz's question, which has no resume link, never.
 */
export function InAppWayOut({
  t,
  screen,
  inApp,
  note,
}: {
  t: TFunction;
  screen: DrawnScreen;
  inApp: InAppBrowser;
  /** The line above the button, with `{{app}}` for the app's name. */
  note: string;
}) {
  if (!isScreenId(screen)) return null;
  return (
    <div className="in-app-way-out">
      <p className="in-app-way-out__note" role="note">
        {t(note, { app: IN_APP_NAMES[inApp.app] })}
      </p>
      <Island
        name="OpenInBrowser"
        props={{
          screen,
          inApp,
          text: {
            button: t('kit.open_in_browser.button'),
            busy: t('kit.continue_busy'),
            copied: t(`kit.open_in_browser.copied_${inApp.os === 'ios' ? 'safari' : 'browser'}`),
            copyByHand: t('kit.open_in_browser.copy_by_hand'),
            failed: t('kit.open_in_browser.failed'),
          },
        }}
      />
    </div>
  );
}
