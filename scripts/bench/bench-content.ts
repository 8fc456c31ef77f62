import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { LANDING_COMPOSITIONS } from '../../screens/landing/section-specs';
import { type ContentDocument, parseContent } from '../../shared/config/content';
import { contentIssues } from '../../worker/content/check';
import { SUPPORTED_LANGUAGES } from '../../worker/i18n';
import { originalKey } from '../../worker/pictures/library';

/**
 * The content the benchmarks put on the landing, the way a marketer's first landing test does:
 * a new headline in every shipped language, the reviews moved above the phone form, and a
 * picture of the library under the hero, with its alt text. The data benchmark runs its visitors
 * through it (what content and pictures cost per visitor: KV and R2 reads), the page benchmark
 * measures a landing drawn from it against the same landing in code (its CPU a page).
 */

/** The screen the content arranges: the landing a visitor of the default flow opens. */
export const BENCH_CONTENT_SCREEN = 'one_pager';

const HEADLINE: Readonly<Record<string, string>> = {
  en: 'See where your family is, with their consent',
  ar: 'اعرف مكان عائلتك بموافقتهم',
  de: 'Sehen, wo die Familie ist, mit ihrer Zustimmung',
  es: 'Mira dónde está tu familia, con su permiso',
  fr: 'Voyez où est votre famille, avec son accord',
  pt: 'Veja onde está a sua família, com o consentimento dela',
  ru: 'Знайте, где ваша семья, с её согласия',
};

const ALT: Readonly<Record<string, string>> = {
  en: 'A parent and child looking at a map on a phone',
  ar: 'أب وطفل ينظران إلى خريطة على الهاتف',
  de: 'Ein Elternteil und ein Kind sehen auf eine Karte im Telefon',
  es: 'Un padre y su hijo miran un mapa en el teléfono',
  fr: 'Un parent et son enfant regardent une carte sur un téléphone',
  pt: 'Um pai e um filho olham para um mapa no telemóvel',
  ru: 'Родитель и ребёнок смотрят на карту в телефоне',
};

export interface BenchPicture {
  id: string;
  bytes: Uint8Array;
  width: number;
  height: number;
}

/** A 1200×800 photo-like JPEG (noise over a gradient, as a photo compresses), made the same each run. */
export async function benchPicture(): Promise<BenchPicture> {
  const width = 1200;
  const height = 800;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let at = 0; at < pixels.length; at += 3) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = (at / 3) % width;
    const noise = seed % 24;
    pixels[at] = (40 + (x * 150) / width + noise) | 0;
    pixels[at + 1] = 90 + noise;
    pixels[at + 2] = (200 - (x * 80) / width + noise) | 0;
  }
  const bytes = new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 82 })
      .toBuffer(),
  );
  return { id: createHash('sha256').update(bytes).digest('hex'), bytes, width, height };
}

/** What the landing shows: the headline in every language, the reviews up, the picture. */
function landingBody(picture: BenchPicture) {
  const landing = LANDING_COMPOSITIONS[BENCH_CONTENT_SCREEN];
  const inCode = landing.sections.map((section) => section.kind as string);
  const rest = inCode.filter((kind) => kind !== 'hero' && kind !== 'reviews');
  const order = ['hero', 'picture', 'reviews', ...rest];
  const copy = Object.fromEntries(
    SUPPORTED_LANGUAGES.map((language) => [
      language,
      { [`screens.${BENCH_CONTENT_SCREEN}.title`]: HEADLINE[language] ?? HEADLINE.en! },
    ]),
  );
  const alt = Object.fromEntries(
    SUPPORTED_LANGUAGES.map((language) => [language, ALT[language] ?? ALT.en!]),
  );
  return {
    sections: order.map((id) => ({ id, visible: true })),
    copy,
    picture: { id: picture.id, width: picture.width, height: picture.height, alt },
  };
}

/** `document` parsed and checked by the rules a publish applies: the bench measures only what a marketer can ship. */
function publishable(document: unknown, picture: BenchPicture): ContentDocument {
  const parsed = parseContent(JSON.stringify(document));
  if (!parsed.ok) throw new Error(`the bench's content is invalid: ${parsed.error}`);
  const issues = contentIssues(
    parsed.value,
    new Map([[picture.id, { width: picture.width, height: picture.height }]]),
  );
  if (issues.length > 0) {
    throw new Error(`a publish would refuse the bench's content: ${JSON.stringify(issues)}`);
  }
  return parsed.value;
}

/**
 * The landing in code, drawn from content: what the data bench's visitors open; with `saveOffer`,
 * the save offer its subscribers meet before a cancel (data/save-offer.ts).
 */
export function benchContent(
  picture: BenchPicture,
  saveOffer?: ContentDocument['saveOffer'],
): ContentDocument {
  return publishable(
    { screens: { [BENCH_CONTENT_SCREEN]: landingBody(picture) }, ...(saveOffer && { saveOffer }) },
    picture,
  );
}

/** A new landing a marketer composed from the same sections, at its own path. */
export const BENCH_COMPOSED_SCREEN = 'bench_landing';

/**
 * The same body as a composed screen (`/bench_landing`, from the landing in code): what the
 * page bench measures beside the screens in code, which stay as code draws them.
 */
export function benchComposedContent(picture: BenchPicture): ContentDocument {
  return publishable(
    {
      screens: {},
      composed: {
        [BENCH_COMPOSED_SCREEN]: {
          slot: 'landing',
          from: BENCH_CONTENT_SCREEN,
          ...landingBody(picture),
        },
        [BENCH_AS_CODE_SCREEN]: { slot: 'landing', from: BENCH_CONTENT_SCREEN },
      },
    },
    picture,
  );
}

/**
 * A composed landing that shows what the landing in code shows: the same sections, copy and
 * markup, drawn through the content's path. Its CPU a page against the landing in code's is
 * what drawing from content costs, with nothing else that differs.
 */
export const BENCH_AS_CODE_SCREEN = 'bench_as_code';

/** Where the picture's original goes, with the metadata the console's upload writes beside it. */
export function benchPictureObject(picture: BenchPicture) {
  return {
    key: originalKey(picture.id),
    bytes: picture.bytes,
    options: {
      httpMetadata: { contentType: 'image/jpeg' },
      customMetadata: {
        type: 'jpeg',
        width: String(picture.width),
        height: String(picture.height),
        uploadedBy: 'bench@geofunnel.test',
        uploadedAt: '2026-11-01T00:00:00.000Z',
      },
    },
  };
}
