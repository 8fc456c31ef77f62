/** Hosts whose traffic never leaves the machine: a local funnel on plain http (npm start). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A link the product API hands over for the page to show or open: https only. A `javascript:` or
 * `data:` link would run in our page when followed, and an `http:` one would carry the login
 * token it holds over the network in the clear. The one exception is http to this machine
 * itself, which crosses no network: the local funnel's own login link.
 */
export function isHttpsLink(link: string): boolean {
  if (!URL.canParse(link)) return false;
  const url = new URL(link);
  if (url.hostname === '') return false;
  return (
    url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
  );
}
