import type { ScreenDefinition } from '../../../screens/registry';
import type { RefusedEmail, SignedUpAccount } from '../../../shared/api/form-sign-up';
import { CARD_AGAIN_QUERY } from '../../../shared/api/payment-provider-paths';
import type { ComposedScreens, ScreenRef } from '../../../shared/composed-screens';
import { screenOfRef } from '../../../shared/composed-screens';
import {
  DECLINE_CLASS_PARAM,
  type DeclineClass,
  isDeclineClass,
} from '../../../shared/decline-class';
import type { PostedPhone, RefusedPhone } from '../../../shared/phone/posted-phone';
import type { OfferClock } from '../../../shared/plans/offer-clock';
import { isSellingScreen } from '../../../shared/plans/screen-offers';
import type { AnswerProblem, Answers } from '../../../shared/quiz/answers';
import type { DrawnScreen } from '../../../shared/screens';
import type { ApiDependencies } from '../../api/call-handler';
import { pageOfferClock } from '../../checkout/offer';
import { type ActiveFlow, flowPaywall, nextScreen } from '../../funnel/flow';
import { otherProviderOfferedTo } from '../../provider-routing/provider-pin';
import type { RenderedScreens } from '../../render/rendered-screens';
import { takePostedPhone, takeSignedUp } from '../../request/cookies';
import { keptAnswers } from '../../request/kept-answers';
import type { PageRequest } from '../../request/visit';

export type Screens = Record<DrawnScreen, ScreenDefinition>;

/** What the screen routes are built from: the screens, the kept bodies, the API for forms. */
export interface ScreenDeps {
  api: ApiDependencies;
  screens: Screens;
  renderedScreens: RenderedScreens | null;
}

/**
 * A page's visit, as the route handler hands it down: the bindings, the request's address and
 * what the page middleware learnt of it, and what the request carried in from the screen before
 * (a posted number, a new account, the offer's deadline), read and cleared by the handler.
 */
export interface PageVisit extends Omit<PageRequest, 'cookies' | 'answer'> {
  carried: Carried;
}

/** What a screen is handed from the one before it (pageVisitOf below reads it once, as it is shown). */
export interface Carried {
  offerClock: OfferClock;
  /** 'Payment declined': the worker offers the other provider's form (the visitor's pin). */
  otherProviderOffered?: boolean;
  postedPhone?: PostedPhone;
  account?: SignedUpAccount;
  /** A quiz's answers kept for the visit (worker/request/kept-answers.ts), where the content asks any. */
  answers?: Answers;
}

/**
 * The screen a request shows: `ref`, as the path and the flow name it (a composed screen's own
 * id), drawn and behaving as `screen`, the screen in code (itself, or the composed one's `from`).
 */
export interface Shown {
  ref: ScreenRef;
  screen: DrawnScreen;
}

/** A screen's own form refused what was posted: shown again with it, under this status. */
export interface Refused {
  phone?: RefusedPhone;
  email?: RefusedEmail;
  /** A quiz question's answer (./question-post.ts): why it was refused. */
  question?: AnswerProblem;
  status: number;
}

/** The screen `ref` names in the request's content, or null when there is none of that name. */
export function shownOf(content: ComposedScreens, ref: string | undefined): Shown | null {
  const screen = ref === undefined ? null : screenOfRef(content, ref);
  return screen === null ? null : { ref: ref as ScreenRef, screen };
}

/**
 * The screen a screen's Continue leads to, or null; null too after a question that branches,
 * where the answer decides it (./question-post.ts), so nothing is fetched ahead.
 */
export function nextOf(
  screens: Screens,
  current: Shown,
  visit: { flow: ActiveFlow; content: ComposedScreens },
): ScreenRef | null {
  const { branches } = visit.flow;
  if (branches && Object.hasOwn(branches, current.ref)) return null;
  const { offFlowNext, backToPaywall } = screens[current.screen];
  const offFlow = backToPaywall
    ? (flowPaywall(visit.flow, visit.content) ?? offFlowNext)
    : offFlowNext;
  return nextScreen(visit.flow, current.ref, offFlow);
}

/**
 * The visitor's query, as every move keeps it (SPEC.md §2), less a decline's class (advice for
 * 'Payment declined' alone) and an upsell's card asked again: the page's links and forms do not
 * carry them on.
 */
export function queryOf(url: string): string {
  return searchWithoutOnePageParams(new URL(url).search);
}

/** The class 'Payment declined' names in its address, if it is one (else the advice for any). */
export function declineClassIn(url: string): DeclineClass | undefined {
  const named = new URL(url).searchParams.get(DECLINE_CLASS_PARAM);
  return isDeclineClass(named) ? named : undefined;
}

/** Whether an upsell's address asks for the card again (CARD_AGAIN_QUERY). */
export function cardAgainIn(url: string): boolean {
  return new URL(url).searchParams.get(CARD_AGAIN_QUERY.name) === CARD_AGAIN_QUERY.value;
}

/** The query without the parameters that speak to one page alone: the decline, the card again. */
function searchWithoutOnePageParams(search: string): string {
  const params = new URLSearchParams(search);
  if (!params.has(DECLINE_CLASS_PARAM) && !params.has(CARD_AGAIN_QUERY.name)) return search;
  params.delete(DECLINE_CLASS_PARAM);
  params.delete(CARD_AGAIN_QUERY.name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/**
 * The door from a screen's route handler to the page code below it: the page's visit, made of
 * the handler's request once (worker/request/visit.ts pageRequestOf), with what the screen
 * before carried in, each cookie read and cleared here as the screen is shown.
 */
export async function pageVisitOf(
  page: PageRequest,
  deps: ScreenDeps,
  { screen }: Shown,
): Promise<PageVisit> {
  const carried: Carried = {
    // The offer countdown of a screen that sells with one (every selling screen but the guide's,
    // whose price is its own): its deadline is fixed on the first such page the visitor sees.
    offerClock:
      !isSellingScreen(screen) || screen === 'upsell_guide'
        ? { state: 'off' }
        : await pageOfferClock(
            page,
            page.facts.arms.preview,
            page.facts.arms.experiments.shape.countdown !== false,
            Date.now(),
          ),
    otherProviderOffered:
      screen === 'payment_declined' ? await otherProviderOfferedTo(page.cookies) : undefined,
    postedPhone: deps.screens[screen].takesPostedPhone ? takePostedPhone(page) : undefined,
    // A quiz's answers, for its questions and the copy that says them: read where the content
    // asks any question, so a funnel without a quiz checks no cookie.
    answers: page.facts.config.content.questions ? await keptAnswers(page.cookies) : undefined,
    // Any screen may follow a signup screen in some flow: whichever comes next takes the account.
    account: takeSignedUp(page),
  };
  const { env, url, path, request, facts, executionCtx } = page;
  return { env, url, path, request, facts, executionCtx, carried };
}

/** What handing a rendered page to Hono needs of the handler's `c`: its body maker. */
interface PageAnswer {
  body(data: ReadableStream, init: ResponseInit): Response;
}

/** Hands a rendered page to Hono, so cookies and headers set by middleware go with it. */
export function answerPage(c: PageAnswer, page: Response): Response {
  return c.body(page.body as ReadableStream, page);
}
