/**
 * Which ad app's own browser a visitor is in, told from the request's user agent (and the
 * `Sec-CH-UA-Platform` client hint where the browser sends one). Most paid-social traffic opens
 * the funnel inside these browsers, which break Google sign-in, wallets and pop-ups;
 * the page gets one fact, the app and the OS, and adapts. Anything not recognised is a normal
 * browser: a wrong "normal" costs a visitor a workaround, a wrong "in-app" takes options away.
 */

export type InAppApp =
  | 'facebook'
  | 'instagram'
  | 'messenger'
  | 'tiktok'
  | 'snapchat'
  | 'pinterest'
  | 'linkedin'
  | 'x';

export type InAppOs = 'ios' | 'android' | 'other';

/** The one fact the page gets about an in-app browser. */
export type InAppBrowser = { app: InAppApp; os: InAppOs };

/**
 * Whether a window the page opens (PayPal's) shows anything in this browser. TikTok's iOS browser
 * opens it blank, so a PayPal payment there can never finish; the others open it as a tab of
 * their own browser.
 */
export function opensPaymentWindows(browser: InAppBrowser | null | undefined): boolean {
  return !(browser?.app === 'tiktok' && browser.os === 'ios');
}

/** Each app as its maker spells it, in every language: what the page names to the visitor. */
export const IN_APP_NAMES: Record<InAppApp, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  messenger: 'Messenger',
  tiktok: 'TikTok',
  snapchat: 'Snapchat',
  pinterest: 'Pinterest',
  linkedin: 'LinkedIn',
  x: 'X',
};

/** The client hints that can name the OS, as the request carried them (raw header values). */
export type InAppHints = { platform?: string | null; mobile?: string | null };

type InAppRule = { app: InAppApp; tokens: readonly RegExp[] };

/**
 * The rules, first match wins. Instagram and Messenger come before Facebook because Meta's apps
 * share the `FBAN/` / `FB_IAB/` bracket format, and the Facebook row ends with catch-alls for it;
 * no Instagram build in the fixtures carries an FB token, but the order keeps that from mattering.
 * Tokens are case-sensitive on purpose: the apps' crawlers (Twitterbot, Pinterestbot,
 * LinkedInBot, TikTokSpider, SnapchatAds) spell their names differently and are not visitors here.
 */
export const IN_APP_RULES: readonly InAppRule[] = [
  {
    app: 'instagram',
    tokens: [
      // `Instagram 354.0.0.29.90 (iPhone12,8; iOS 18_1; …)` on iOS,
      // `… Instagram 355.1.0.44.103 Android (34/14; 420dpi; …)` on Android.
      /\bInstagram \d/,
    ],
  },
  {
    app: 'messenger',
    tokens: [
      // iOS: `[FBAN/MessengerForiOS;FBAV/…]`, and Messenger Lite's `[FBAN/MessengerLiteForiOS;…]`.
      /FBAN\/Messenger/,
      // Android, older builds: `[FB_IAB/MESSENGER;FBAV/118.0.0.19.82;]`.
      /FB_IAB\/MESSENGER/,
      // Android, newer builds: `[FB_IAB/Orca-Android;FBAV/402.0.0.11.101;]` (Orca is Messenger's
      // package name, com.facebook.orca); the app's own requests say `FBAN/Orca-Android`.
      /FB_IAB\/Orca-Android/,
      /FBAN\/Orca-Android/,
    ],
  },
  {
    app: 'facebook',
    tokens: [
      // iOS: `[FBAN/FBIOS;FBAV/482.2.0.68.110;FBBV/…;FBDV/iPhone12,8;…]`.
      /FBAN\/FBIOS/,
      // Android: `[FB_IAB/FB4A;FBAV/541.0.0.49.79;IABMV/1;]`; old builds `[FBAN/FB4A;FBAV/…]`.
      /FB_IAB\/FB4A/,
      /FBAN\/FB4A/,
      // Facebook Lite on Android: `[FBAN/EMA;FBLC/en_US;FBAV/268.0.0.5.116;]`.
      /FBAN\/EMA/,
      // Meta's newer in-app browser format, both OSes: `… Safari/604.1 MetaIAB Facebook`, and on
      // some Android builds a bare `MetaIAB`, which device-detector also reads as Facebook.
      /\bMetaIAB\b/,
      // Any other app of the family in the same format (Groups, Pages Manager, old
      // `FBAN/FBForIPhone`): same browser, same limits.
      /FBAN\//,
      /FB_IAB\//,
    ],
  },
  {
    app: 'tiktok',
    tokens: [
      // Global TikTok: `musical_ly_34.3.1` on iOS, `musical_ly_2022704050` on Android.
      /\bmusical_ly/,
      // The Asian builds (`trill_34.9.0`, `trill_2022109040`) and TikTok Lite's `trill_400`.
      /trill_\d/,
      // ByteDance's webview marker, `BytedanceWebview/d8a21c6`, also in Douyin (`aweme_…`).
      /BytedanceWebview\//,
      // TikTok Lite (`AppName/ultralite`) and other regional builds that drop the markers above
      // still send ByteDance's locale fields: `ByteLocale/id-ID ByteFullLocale/id-ID`.
      /\bByteLocale\//,
      // The app's own client: `TikTok 17.8.1 rv:178102 (iPhone; iOS 14.1; ja_JP) Cronet`. A digit
      // must follow so that the crawler, `TikTokSpider`, does not match.
      /\bTikTok[ /]\d/,
    ],
  },
  {
    app: 'snapchat',
    tokens: [
      // iOS: `… Snapchat/12.72.0.39 (like Safari/8617.2.4.10.8, panda)`; Android, newer builds:
      // `… Mobile Safari/537.36 Snapchat/12.87.0.44 (RMX2001; Android 11#…; gzip; )`; Android,
      // older builds glue it on with no slash: `… Safari/537.36Snapchat11.83.0.31 (Pixel 6 Pro; …)`.
      // The ad crawler is `SnapchatAds/1.0`, which needs the digit to be told apart.
      /Snapchat\/?\d/,
    ],
  },
  {
    app: 'pinterest',
    tokens: [
      // The in-app browser: `… Mobile/13C75 [Pinterest/iOS]`, `… Safari/537.36 [Pinterest/Android]`.
      /\[Pinterest\/(?:iOS|Android)\]/,
      // The app's own client: `Pinterest for Android/9.0.4 (K83CA; 9)` (also `… Tablet/…`),
      // `Pinterest for iOS/7.11 (iPhone7,2; 12.1.4)`.
      /Pinterest for (?:Android|iOS)/,
    ],
  },
  {
    app: 'linkedin',
    tokens: [
      // Both OSes: `… Mobile/15E148 [LinkedInApp]/9.24.1488`, `… Safari/537.36 [LinkedInApp]/2.200.63`.
      /\[LinkedInApp\]/,
      // The Android app's own client: `com.linkedin.android/179800 (Linux; U; Android 14; …)`.
      /\bcom\.linkedin\.android\//,
    ],
  },
  {
    app: 'x',
    tokens: [
      // Android: `… Mobile Safari/537.36 TwitterAndroid`; the app's own client
      // `TwitterAndroid/7.71.1-release.15 (…)`.
      /\bTwitterAndroid\b/,
      // iOS, until X moved links to Safari View Controller (which sends Safari's user agent and
      // cannot be told apart): `… Mobile/17D50 Twitter for iPhone/8.10`, also on iPad.
      /\bTwitter for (?:iPhone|iPad)\b/,
    ],
  },
];

/**
 * Real user agents stay far below this (the longest Meta ones are about 450 characters); past it
 * the header is not a browser's, and the cap bounds the work an attacker can ask of the edge.
 */
export const MAX_USER_AGENT_LENGTH = 1024;

/** The app whose browser sent this user agent, and its OS; null for any other browser. */
export function detectInAppBrowser(
  userAgent: string | null | undefined,
  hints?: InAppHints,
): InAppBrowser | null {
  if (typeof userAgent !== 'string' || userAgent.length === 0) return null;
  if (userAgent.length > MAX_USER_AGENT_LENGTH) return null;
  const rule = IN_APP_RULES.find(({ tokens }) => tokens.some((token) => token.test(userAgent)));
  if (rule === undefined) return null;
  return { app: rule.app, os: osFromHint(hints?.platform) ?? osFromUserAgent(userAgent) };
}

/**
 * `Sec-CH-UA-Platform` is a structured-header string, quotes included: `"Android"`, `"iOS"`.
 * It names the OS outright where the user agent may not (reduced or desktop-mode user agents), so
 * it wins when it names one of ours; any other value (`"Windows"`, `"Unknown"`, garbage) leaves
 * the decision to the user agent. `Sec-CH-UA-Mobile` says phone or not, never which OS, so the
 * OS is not read from it.
 */
function osFromHint(platform: string | null | undefined): InAppOs | null {
  if (typeof platform !== 'string' || platform.length > 64) return null;
  const name = platform.trim().replace(/^"(.*)"$/, '$1');
  if (name === 'Android') return 'android';
  if (name === 'iOS') return 'ios';
  return null;
}

function osFromUserAgent(userAgent: string): InAppOs {
  // No word boundaries: the apps' own clients glue model numbers on (`iPhone15,2`) and
  // `TwitterAndroid/7.71.1 (…)` is Android too. An iPad in desktop mode says `Macintosh`, so it
  // lands in `other`; Apple offers no tell.
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'ios';
  if (/Android/.test(userAgent)) return 'android';
  return 'other';
}
