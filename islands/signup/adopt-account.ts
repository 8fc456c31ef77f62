import type { SignedUpAccount } from '../../shared/api/form-sign-up';
import { handOnEvents } from '../analytics/start';
import type { PageState } from '../protocol';
import { $events } from '../stores/events';
import { $signup } from '../stores/signup';

/**
 * The screen after a signup screen whose email form the worker took without script (worker/
 * routes/signup-form.ts): the account it created becomes the islands' own, as their sign-up
 * would have left it (SPEC.md §4 Signup: isSuccess, the ids, the analytics user id). The session
 * cookie already holds its token; the checkout asks for payment settings when it finds none
 * (islands/stores/card-form.ts), the success screen for the app link. Runs before the islands
 * hydrate (islands/boot.ts).
 */
export function adoptAccount(page: PageState, account: SignedUpAccount): void {
  const signup = $signup.get();
  $signup.set({
    ...signup,
    email: account.email,
    emailValidity: true,
    // SPEC.md §5: the name falls back to the email.
    name: signup.name || account.email,
    uuid: page.analytics.visitorId,
    isSuccess: true,
    userId: account.userId,
    deeplinkToken: account.deeplinkToken,
  });
  const events = $events.get();
  $events.setKey('analyticsData', { ...events.analyticsData, user_id: account.userId });
  // The lead happened on the signup screen, reported there. Its time in this browser's clock is
  // when the navigation began that posted the form (and came back here): before this screen's load.
  if (page.analytics.collector === null) return;
  handOnEvents({ ...page, screen: account.screen, account: undefined }, account.path, [
    { name: 'lead', time: Math.floor(performance.timeOrigin), userId: account.userId },
  ]);
}
