import type { TFunction } from 'i18next';
import type { FlowProgress } from '../../../screens/kit/LinearProgress';
import { Page } from '../../../screens/layout/Page';
import type { PreviewNotice } from '../../../screens/layout/PreviewBar';
import type { ScreenProps } from '../../../screens/types';
import type { ConsentState, PixelIds } from '../../../shared/analytics/tracking';
import {
  type ComposedScreens,
  type ScreenRef,
  screenOfRef,
} from '../../../shared/composed-screens';
import { logError } from '../../../shared/log';
import { textIn } from '../../../shared/quiz/question';
import type { DrawnScreen } from '../../../shared/screens';
import { type ActiveFlow, flowProgress } from '../../funnel/flow';
import { draftContentOf, PREVIEW_END_URL } from '../../preview/preview';
import {
  type EncodedBody,
  pageResponse,
  type RenderedBody,
  renderBody,
} from '../../render/render-page';
import {
  bodyKey,
  fillSlots,
  isSlottable,
  SEARCH_SLOT,
  translatorId,
  VISITOR_SLOT,
} from '../../render/rendered-screens';
import type { AppEnv } from '../../request/envs';
import { exposesNext } from '../../request/visit';
import {
  nextOf,
  type PageVisit,
  queryOf,
  type Refused,
  type ScreenDeps,
  type Shown,
} from './page-visit';
import {
  pageAttribution,
  pageExposureTicket,
  pageState,
  pageVitalsOf,
  screenProps,
} from './screen-props';

type PageAttribution = { consent: ConsentState; pixels: PixelIds };

/** Each translator's page titles, per screen: a title does not change in a translator's life. */
const titlesByTranslator = new WeakMap<TFunction, Map<DrawnScreen, string>>();

/**
 * The page's <title> (SPEC.md §9 texts); a quiz question's is its question. Kept per
 * translator, as i18next interpolating the three texts took about 8% of the worker's CPU for a
 * landing (docs/performance.md, "A page's CPU on the server"); a translator with an override
 * from KV is a new translator, so its titles are its own.
 */
function pageTitle(props: Pick<ScreenProps, 't' | 'brand' | 'screen' | 'asked' | 'language'>) {
  const { t, brand, screen, asked } = props;
  if (asked) {
    const title = textIn(asked.question.title, props.language);
    return t('page_title', { title, brand: brand.titleSuffix });
  }
  let titles = titlesByTranslator.get(t);
  if (!titles) {
    titles = new Map();
    titlesByTranslator.set(t, titles);
  }
  let title = titles.get(screen);
  if (title === undefined) {
    title = t('page_title', { title: t(`screens.${screen}.title`), brand: brand.titleSuffix });
    titles.set(screen, title);
  }
  return title;
}

/** What frames a screen's body: the ad tools' consent, a preview's bar, the progress. */
interface Chrome {
  attribution: PageAttribution;
  preview?: PreviewNotice;
  progress: FlowProgress | null;
}

/**
 * A screen's body: kept and served again when nothing in it belongs to one visitor but the
 * query string (`search`) and their uuid, which go in slots (../../render/rendered-screens.ts);
 * else rendered for this request alone (a refused form, a posted number, a marketer's preview).
 */
function screenBody(
  deps: ScreenDeps,
  search: string,
  props: ScreenProps,
  shown: { ref: ScreenRef; next: ScreenRef | null },
  chrome: Chrome,
  onError: (error: unknown) => void,
): Promise<RenderedBody | EncodedBody> {
  const { screens, renderedScreens } = deps;
  const { Component } = screens[props.screen];
  const render = (screenProps: ScreenProps) =>
    renderBody(
      <Page
        t={props.t}
        brand={props.brand}
        attribution={chrome.attribution}
        preview={chrome.preview}
        progress={chrome.progress}
        bottomButton={screens[props.screen].bottomButton}
      >
        <Component {...screenProps} />
      </Page>,
      onError,
    );
  const values = { search, visitorId: props.visitorId };
  const ownValues =
    props.refusedPhone ||
    props.refusedEmail ||
    props.postedPhone ||
    props.personal ||
    props.asked?.answer !== undefined ||
    props.asked?.question.kind === 'result' ||
    props.asked?.problem;
  if (!renderedScreens || ownValues || chrome.preview || !isSlottable(values)) {
    return render(props);
  }
  const slotted: ScreenProps = {
    ...props,
    signUpAt: props.signUpAt ? props.signUpAt.replace(/\?.*$/, '') + SEARCH_SLOT : null,
    continueAction: `/${shown.ref}${SEARCH_SLOT}`,
    next: shown.next ? `/${shown.next}${SEARCH_SLOT}` : null,
    visitorId: VISITOR_SLOT,
  };
  const key = bodyKey({ translator: translatorId(props.t), chrome, props: slotted });
  return renderedScreens.body(key, () => render(slotted)).then((body) => fillSlots(body, values));
}

/** The frame of a screen's body (see Chrome), on a marketer's `preview` or not. */
function screenChrome(
  visit: {
    flow: ActiveFlow;
    content: ComposedScreens;
    preview: AppEnv['Variables']['preview'];
    draft: boolean;
    copyDraft: boolean;
  },
  screen: ScreenRef,
  attribution: PageAttribution,
): Chrome {
  const { preview } = visit;
  return {
    // The chrome reads consent and the ad tools only: nothing of the visitor's tracking data.
    attribution: { consent: attribution.consent, pixels: attribution.pixels },
    preview: preview && {
      variant: preview.variant,
      route: preview.route,
      endUrl: PREVIEW_END_URL,
      ...(visit.draft ? { draft: true } : {}),
      ...(visit.copyDraft ? { copyDraft: true } : {}),
    },
    progress: flowProgress(visit.flow, screen, visit.content),
  };
}

/**
 * The page of a screen as the visit sees it: its body, kept or drawn, in the page's frame, with
 * the state its islands and tracker read. The route handler hands it to Hono, so the cookies and
 * headers middleware set go with it.
 */
export async function showScreen(
  deps: ScreenDeps,
  visit: PageVisit,
  shown: Shown,
  refused?: Refused,
): Promise<Response> {
  const { screens } = deps;
  const { facts } = visit;
  const { ref, screen } = shown;
  const search = queryOf(visit.url);
  const nextId = nextOf(screens, shown, { flow: facts.arms.flow, content: facts.config.content });
  const nextScreen = nextId === null ? null : screenOfRef(facts.config.content, nextId);
  const next = nextId ? `/${nextId}${search}` : null;
  facts.note('screen', ref);
  const { attribution, collector } = pageAttribution(
    facts.visitor.attribution,
    facts.arms.preview !== undefined,
    visit.env,
  );
  const props = screenProps(visit, shown, next, refused);
  const vitals = pageVitalsOf(visit, collector, deps.api.now());
  const ticket = pageExposureTicket(visit, deps.api.now());
  const { t } = props;
  const { account } = visit.carried;
  const onError = (error: unknown) =>
    logError('render_stream_failed', { screen, detail: String(error) });
  const frame = {
    flow: facts.arms.flow,
    content: facts.config.content,
    preview: facts.arms.preview,
    // The console editor's frame: the page drawn from a draft only the worker can attach.
    draft: draftContentOf(visit.request) !== undefined,
    copyDraft: facts.copyDraft === true,
  };
  const chrome = screenChrome(frame, ref, attribution);
  const body = screenBody(deps, search, props, { ref, next: nextId }, chrome, onError);
  const [rendered, sampled, exposureTicket] = await Promise.all([body, vitals, ticket]);
  const page = await pageResponse(rendered, {
    nonce: facts.nonce,
    language: facts.language,
    theme: facts.theme,
    brand: props.brand,
    screenCss: screens[screen].css,
    title: pageTitle(props),
    // A next screen that would expose the visitor is fetched when they go there, so the
    // worker sees that visit (worker/middleware/exposure.ts exposesNext). So is the screen after
    // a sign-up: fetched before it, it would be a signed-out page, without the account the
    // sign-up carries to it and with the browser's arm of a price test, which follows the
    // account once signed in (worker/experiments/config/evaluate.ts): Chromium shows a
    // same-origin prefetch whatever cookies changed since, and the charge was then refused.
    prefetch:
      nextId &&
      !screens[screen].signUpForm &&
      !exposesNext(facts.arms.experiments, facts.config, ref, nextId)
        ? next
        : null,
    prefetchImages: nextScreen ? (screens[nextScreen].images ?? []) : [],
    state: pageState(visit, {
      shown,
      next,
      account,
      collector,
      attribution,
      vitals: sampled,
      exposureTicket,
    }),
    islandFailure: {
      message: t('kit.island_failed.message'),
      reload: t('kit.island_failed.reload'),
    },
    onError,
    // A refused form is no page of the flow: its status keeps it out of anything counting 200s.
    status: refused?.status,
  });
  // The account's login grant is in this page: the browser keeps no copy of it.
  if (account) page.headers.set('cache-control', 'no-store');
  return page;
}
