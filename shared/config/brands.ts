import * as z from 'zod';
import type { Brand } from '../brand';
import { visitorTextProblems } from '../copy-rules';
import { oneOf } from '../one-of';
import { THEMES } from '../theme';

/**
 * The `brands` of the content document (shared/config/content.ts): per theme, the brand its
 * pages wear (shared/brand.ts). A theme the document does not name wears the brand in code. A
 * brand is given whole, so a page never mixes one brand's name with another's links. Its texts
 * are held to the rules of every text a visitor reads (shared/copy-rules.ts): a brand's name
 * shows on every page, the paywalls' too, so it may state no price.
 */

/**
 * `schema` whose text is also held to the visitor's text rules (shared/copy-rules.ts), each
 * problem refused at the text's own path; `selling`: a price typed there could be read as one
 * the funnel charges.
 */
function readByVisitors<T extends z.ZodType<string>>(schema: T, selling: boolean) {
  return schema.superRefine((text, context) => {
    for (const message of visitorTextProblems(text, { selling })) {
      context.addIssue({ code: 'custom', message, input: text });
    }
  });
}

/** An https:// address of a named host, with no credentials in it. */
function isHttpsAddress(text: string): boolean {
  if (!URL.canParse(text) || text !== text.trim()) return false;
  const url = new URL(text);
  // Credentials (`https://user@host`) make a link that reads as one site and opens another.
  return (
    url.protocol === 'https:' &&
    z.regexes.domain.test(url.hostname) &&
    !/^https:\/\/[^/]*@/i.test(text)
  );
}

const https = readByVisitors(
  z
    .string('must be an https:// address')
    .max(300, 'must be at most 300 characters')
    .refine(isHttpsAddress, 'must be an https:// address'),
  false,
);

/**
 * A file on this site: the page's img-src is 'self', and the path goes into the page's CSS as
 * `url(...)`, so no quote, bracket, space or `..` may be in it, and it may not start `//`, which a
 * browser reads as another host's address.
 */
const sitePicture = z
  .string('must be a path such as /logos/geozilla.svg')
  .regex(
    /^\/(?!\/)(?!.*\.\.)[A-Za-z0-9/_.-]{1,120}\.(svg|png|webp)$/,
    'must be a path on this site such as /logos/geozilla.svg',
  );

const pixels = z.int('must be a whole number of pixels').min(16).max(320);

/** Checked text of an SVG icon: nothing in it may run, load or point elsewhere. */
const FAVICON_MAX = 4000;
const favicon = z
  .string('must be an SVG document')
  .max(FAVICON_MAX, `must be at most ${FAVICON_MAX} characters`)
  .regex(/^<svg[\s>][\s\S]*<\/svg>$/, 'must be an SVG document, from <svg to </svg>')
  .refine(
    (svg) => !/<script|<foreignObject|\son[a-z]+\s*=|href\s*=|url\s*\(/i.test(svg),
    'must not hold scripts, event handlers, links or url()',
  );

const name = readByVisitors(
  z
    .string('must be a text')
    .trim()
    .min(1, 'must not be empty')
    .max(40, 'must be at most 40 characters'),
  true,
);

const brand = z.strictObject({
  name,
  titleSuffix: name,
  host: z
    .string('must be a host name')
    .regex(z.regexes.domain, 'must be a host name such as geozilla.com'),
  supportEmail: readByVisitors(z.email('must be an email address').max(254), true),
  logos: z.strictObject({
    header: z.strictObject({ src: sitePicture, width: pixels, height: pixels }),
  }),
  favicon,
  links: z.strictObject({ terms: https, privacy: https, subscriptionTerms: https }),
  stores: z.strictObject({ appStore: https, googlePlay: https }),
}) satisfies z.ZodType<Brand>;

const isTheme = oneOf(THEMES);

export const brandsSchema = z.partialRecord(z.string().refine(isTheme), brand, {
  error: (issue) =>
    issue.code === 'invalid_key'
      ? `unknown theme "${String(issue.input)}" (themes: ${THEMES.join(', ')})`
      : undefined,
});
