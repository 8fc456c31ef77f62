/**
 * The short deeplink of GET /users/me/deeplink-qr-code (SPEC.md §7): the link opens the app
 * signed in, through the one-time login token it carries. Its QR code is shared/qr-code.ts's.
 */
export function deeplinkUrl(base: string, token: string): string {
  const url = new URL(base);
  url.searchParams.set('token', token);
  return url.href;
}
