import { type Handler, Hono } from 'hono';
import * as z from 'zod';
import { COMPOSED_SCREENS } from '../../screens/composed';
import { brandOf } from '../../shared/brand';
import { isComposedScreenId, screenOfRef } from '../../shared/composed-screens';
import { type ContentDocument, parseContent } from '../../shared/config/content';
import {
  CONSOLE_CONTENT_API,
  CONSOLE_CONTENT_PATH,
  type ContentLanguagesAnswer,
  type ContentPreviewAnswer,
  type SaveOfferPreviewAnswer,
} from '../../shared/console-api/content';
import type { FieldError } from '../../shared/console-api/errors';
import {
  contentLanguagesRequest,
  contentPreviewRequest,
  saveOfferPreviewRequest,
} from '../../shared/console-api/request-schemas';
import { logError } from '../../shared/log';
import { isScreenId, QUESTION_SCREEN } from '../../shared/screens';
import type { Theme } from '../../shared/theme';
import { kvLiveKeys } from '../config/publish';
import { contentIssues } from '../content/check';
import { contentLanguageNotes } from '../content/languages';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import { shippedTranslator } from '../i18n';
import {
  PREVIEW_COOKIE,
  PREVIEW_TTL_SECONDS,
  previewedRouteOf,
  previewKey,
  signPreview,
  signRoutePreview,
  withDraftContent,
} from '../preview/preview';
import { executionContextOf } from '../request/after-answer';
import { VISITOR_COOKIE } from '../request/cookies';
import type { ConsoleEnv } from '../request/envs';
import { actionLabel, offerActionOf, reasonsIn } from '../subscriber-links/save-offer-action';
import { saveOfferIn, subscriberPage } from '../subscriber-links/subscriber-page';
import { readLiveCopy } from '../translations/publish-copy';
import { loadShippedText, shippedTextFor } from '../translations/source';
import { contentCatalogue } from './content-catalogue';
import { contentHistory } from './translation-history';

/**
 * The content editor's calls (shared/console-api/content.ts), mounted inside the console's
 * routes, so the Access check, the same-origin guard, the JSON-only body and its limit are the
 * console's own (worker/console/routes.ts). A preview draws the screen through the app itself:
 * the page route, its middleware and its renderer, as a marketer's preview of the default
 * variant or of a route of the draft (its flow and plans; nothing counted, no pixel, no
 * collector), from a country if one is named, with the draft attached to a request only
 * the worker can make (worker/preview/preview.ts, withDraftContent). Its cookies stay in the worker: the
 * answer is the page's HTML as JSON, which the console shows in a frame that runs no script.
 */

/** How the app answers a request: the console hands it the requests it makes itself. */
export type RenderApp = (
  request: Request,
  env: ConsoleEnv['Bindings'],
  ctx?: ExecutionContext,
) => Response | Promise<Response>;

/** A path of the content API as its sub-app sees it, mounted at CONSOLE_CONTENT_PATH. */
const mount = (full: string) => full.slice(CONSOLE_CONTENT_PATH.length);

export function contentRoutes(options: { render: RenderApp; now: () => number }) {
  const routes = new Hono<ConsoleEnv>();
  routes.get(mount(CONSOLE_CONTENT_API.catalogue), async (c) => {
    const live = await readLiveCopy(kvLiveKeys(c.env.FUNNEL_CONFIG));
    return c.json(await contentCatalogue(live.copy, shippedTextFor(c)));
  });
  routes.post(mount(CONSOLE_CONTENT_API.preview), previewContent(options));
  routes.post(mount(CONSOLE_CONTENT_API.languages), languageNotesOfDraft);
  routes.post(mount(CONSOLE_CONTENT_API.saveOfferPreview), previewSaveOffer);
  return routes;
}

/**
 * A preview's body as the document gives it (shared/console-api/request-schemas.ts), its content
 * left to the content's own rules, which answer invalid_config with each field's path.
 */
const previewBody = contentPreviewRequest.extend({ content: z.unknown() });

/**
 * What a preview asks for, or null when it is not a screen made of sections (in code, or a name
 * a composed one may take: the draft's content must then compose it), language and theme, with
 * a route of the draft's routing (its id, flow and plans) and a visitor's country if it names
 * them.
 */
function previewTarget(body: unknown) {
  const parsed = previewBody.safeParse(body);
  if (!parsed.success) return null;
  const { screen, route = null, country = null } = parsed.data;
  if (isScreenId(screen) ? !COMPOSED_SCREENS[screen] : !isComposedScreenId(screen)) return null;
  const routed = route === null ? null : previewedRouteOf(route);
  if (routed === null && route !== null) return null;
  return { ...parsed.data, route: routed, country };
}

function previewContent(options: { render: RenderApp; now: () => number }): Handler<ConsoleEnv> {
  return async function previewContentHandler(c) {
    const target = previewTarget(await readJsonBody(c.req.raw));
    if (target === null) return consoleError(c, 400, 'bad_request');
    const parsed = parseContent(target.content ?? {});
    if (!parsed.ok) {
      return c.json({ ok: false, error: 'invalid_config', errors: shapeErrors(parsed) }, 400);
    }
    const { screen, language, theme, route, country } = target;
    const drawn = screenOfRef(parsed.value, screen);
    // A screen made of sections, or a quiz's question (its own page, console/quiz/).
    if (drawn === null || (!COMPOSED_SCREENS[drawn] && drawn !== QUESTION_SCREEN)) {
      return consoleError(c, 400, 'bad_request');
    }
    const key = previewKey(c.env);
    if (key === null) return consoleError(c, 503, 'console_not_configured');
    const url = new URL(`/${screen}`, c.req.url);
    url.searchParams.set('custom_lng', language);
    url.searchParams.set('theme', theme);
    const expiresAt = Math.floor(options.now() / 1000) + PREVIEW_TTL_SECONDS;
    // The page is drawn for a browser of its own, which the preview is bound to, as a preview
    // link's cookie is (worker/preview/preview.ts).
    const holder = { visitorId: crypto.randomUUID(), author: c.get('consoleAuthor') };
    const { visitorId } = holder;
    // A route's preview shows its flow and plans, as "test a visitor"'s link does.
    const token = route
      ? await signRoutePreview(key, route, expiresAt, holder)
      : await signPreview(key, c.get('config').split.defaultVariant, expiresAt, holder);
    // In production the page's language is the browser's (SPEC.md §2), so it is said both ways.
    const request = new Request(url, {
      headers: {
        cookie: `${VISITOR_COOKIE}=${visitorId}; ${PREVIEW_COOKIE}=${token}`,
        'accept-language': language,
      },
    });
    const page = await options.render(
      withDraftContent(request, parsed.value, { country, author: holder.author }),
      c.env,
      executionContextOf(c) as ExecutionContext | undefined,
    );
    if (page.status !== 200) {
      logError('content_preview_failed', { screen, status: page.status });
      return consoleError(c, 502, 'preview_failed');
    }
    const answer: ContentPreviewAnswer = {
      ok: true,
      html: await page.text(),
      issues: screenIssues(parsed.value, screen),
    };
    return c.json(answer);
  };
}

/** What a publish would refuse of this screen's content. */
function screenIssues(content: ContentDocument, screen: string): FieldError[] {
  const composed = content.composed && Object.hasOwn(content.composed, screen);
  const at = `content.${composed ? 'composed' : 'screens'}.${screen}`;
  return contentIssues(content).filter(
    (issue) => issue.path === at || issue.path.startsWith(`${at}.`),
  );
}

/** The content's shape refused, each issue at its `content.` path. */
function shapeErrors(parsed: { error: string; issues?: { path: string; message: string }[] }) {
  return (parsed.issues ?? [{ path: '', message: parsed.error }]).map((issue) => ({
    path: issue.path ? `content.${issue.path}` : 'content',
    message: issue.message,
  }));
}

/**
 * What visitors in each other language see of the draft content's English changes, every
 * screen's and variant's (worker/content/languages.ts): the validator's answer the content editor
 * shows, so it keeps no rule of its own. Reads the content it compares with; writes nothing.
 */
const languagesBody = contentLanguagesRequest.extend({ content: z.unknown() });

const languageNotesOfDraft: Handler<ConsoleEnv> = async function languageNotesOfDraft(c) {
  const body = languagesBody.safeParse(await readJsonBody(c.req.raw));
  if (!body.success) return consoleError(c, 400, 'bad_request');
  const parsed = parseContent(body.data.content ?? {});
  if (!parsed.ok) {
    return c.json({ ok: false, error: 'invalid_config', errors: shapeErrors(parsed) }, 400);
  }
  const answer: ContentLanguagesAnswer = {
    ok: true,
    // Against the live content and the versions before: an English changed since a
    // translation was written leaves that translation behind.
    languages: contentLanguageNotes(
      parsed.value,
      await contentHistory(c.env, c.var.config.content),
    ),
  };
  return c.json(answer);
};

/**
 * The content editor's preview of the save offer (docs/marketers.md, "The save offer before a
 * cancel"): the subscriber's cancel confirm drawn by the subscriber's page's own code with the
 * draft's offer, or one of its variants as a save offer test's arm shows it, in the language and
 * theme asked for, so the marketer reads it as a subscriber will. It names no subscription: its form posts nowhere a preview can reach (the console shows
 * it in a frame that submits nothing), and the copy around the offer is the shipped text. Reads
 * and writes nothing.
 */
const saveOfferBody = saveOfferPreviewRequest.extend({ content: z.unknown() });

const previewSaveOffer: Handler<ConsoleEnv> = async function previewSaveOffer(c) {
  const body = saveOfferBody.safeParse(await readJsonBody(c.req.raw));
  if (!body.success) return consoleError(c, 400, 'bad_request');
  const { language, theme, content, variant = null } = body.data;
  const parsed = parseContent(content ?? {});
  if (!parsed.ok) {
    return c.json({ ok: false, error: 'invalid_config', errors: shapeErrors(parsed) }, 400);
  }
  if (variant !== null && !Object.hasOwn(parsed.value.saveOffer?.variants ?? {}, variant)) {
    const errors: FieldError[] = [
      {
        path: 'variant',
        message: `names save offer "${variant}", which the content does not define`,
      },
    ];
    return c.json({ ok: false, error: 'invalid_config', errors }, 400);
  }
  const offer = saveOfferIn(parsed.value, language, variant);
  await loadShippedText(shippedTextFor(c), language);
  const t = shippedTranslator(language);
  // Its action's button as a subscriber reads it (a switch priced in US dollars), posting nowhere.
  const action = offerActionOf(parsed.value, variant);
  const take = action && { action: '#take', label: actionLabel(action, { t, language }) };
  const saveOffer = offer && { ...offer, take };
  const reasons = reasonsIn(parsed.value, language);
  const page = await subscriberPage(
    {
      t,
      nonce: crypto.randomUUID(),
      language,
      theme: theme as Theme,
      brand: brandOf(parsed.value.brands, theme as Theme),
    },
    // The subscriber's confirm, as `GET /subscription/<token>/cancel` draws it.
    { kind: 'confirm', action: '#cancel', back: '#keep', saveOffer, reasons },
  );
  const answer: SaveOfferPreviewAnswer = {
    ok: true,
    html: await page.text(),
    offered: !!saveOffer,
  };
  return c.json(answer);
};
