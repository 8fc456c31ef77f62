/**
 * Where the app is listed, for the success screen's download button and store badges until the
 * visitor's deeplink (SPEC.md §7 deeplink-qr-code) replaces them. Search links, because the
 * listing ids are not part of the spec: the product team puts the listings' own URLs here.
 */
export const STORE_LINKS = {
  appStore: 'https://apps.apple.com/us/search?term=Geozilla',
  googlePlay: 'https://play.google.com/store/search?q=Geozilla&c=apps',
} as const;
