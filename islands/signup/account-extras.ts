import { getCountry, getDeeplink } from '../api/client';
import { $signup } from '../stores/signup';

/**
 * SPEC.md §4 Deeplink and country: a failure is only logged and changes no state. Logged as
 * information, not as an error: the funnel goes on without them (the success screen asks again).
 */
function logSkipped(what: string, error: unknown): void {
  console.info(`[geofunnel] ${what} not loaded`, error instanceof Error ? error.message : error);
}

/** GET /api/users/me/deeplink-qr-code: the app's login link and its QR code (SPEC.md §7). */
export async function loadDeeplink(): Promise<void> {
  try {
    const { data } = await getDeeplink();
    // No usable image from the product API: the success screen draws the code from the link.
    const deeplinkQR = data.qr_code ?? '';
    $signup.set({ ...$signup.get(), deeplinkUrl: data.short_deeplink, deeplinkQR });
  } catch (error) {
    logSkipped('deeplink', error);
  }
}

/** GET /api/cf-country: the visitor's country as the edge sees it (SPEC.md §3 userLocation). */
export async function loadCountry(): Promise<void> {
  try {
    const { country_code } = await getCountry();
    $signup.setKey('userLocation', country_code);
  } catch (error) {
    logSkipped('country', error);
  }
}
