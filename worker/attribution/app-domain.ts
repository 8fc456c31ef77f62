import { parsedBinding } from '../parsed-binding';

/**
 * SPEC.md §3 Attribution parameters: `appDomain` names the app's site the visitor came for; it
 * is sent with every event as user_data.source_url. A visitor can put anything in a URL, so it is
 * accepted only when it is exactly one of the allowed origins (APP_DOMAINS): compared as a parsed
 * origin, never as a prefix or substring, so `app.example.com.evil.com`,
 * `app.example.com@evil.com`, `//evil` and `javascript:` all fall back to the default.
 */

/**
 * `https://host[:port]` of each allowed entry; entries that are not a bare origin are ignored.
 * Parsed once per isolate (APP_DOMAINS), not on each page's request.
 */
export const parseOriginList = parsedBinding(function originList(list: string | undefined) {
  return (list ?? '')
    .split(',')
    .map((entry) => bareOrigin(entry.trim()))
    .filter((origin): origin is string => origin !== null);
});

/**
 * The origin `value` names, when it names only an origin: an http(s) URL with no user, path
 * beyond '/', query or fragment, or a bare host name (taken as https). Else null.
 */
export function bareOrigin(value: string): string | null {
  if (!value || value.length > 255 || /[\s\\%]/.test(value)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  const onlyOrigin =
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    (url.pathname === '/' || url.pathname === '') &&
    url.search === '' &&
    url.hash === '' &&
    // `https://host/` and `https://host` name the origin; `//host` or `https:host` do not.
    // Scheme and host are case-insensitive; the URL parser lower-cases them.
    [url.origin, `${url.origin}/`].includes(withScheme.toLowerCase());
  return onlyOrigin ? url.origin : null;
}

/** The allowed origin `requested` names, else `fallback`. */
export function acceptedAppDomain(
  requested: string | null,
  allowed: readonly string[],
  fallback: string,
): string {
  if (requested === null) return fallback;
  const origin = bareOrigin(requested.trim());
  return origin !== null && allowed.includes(origin) ? origin : fallback;
}
