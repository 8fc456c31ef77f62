import type { InAppBrowser } from '../../shared/in-app-browser';
import { MAX_USER_AGENT_LENGTH } from '../../shared/in-app-browser';
import { type Answers, answerKeyOfName } from '../../shared/quiz/answers';
import {
  type Browser,
  type Platform,
  type RouteAttribute,
  WEEKDAYS,
  type Weekday,
} from '../../shared/routing';
import type { FirstTouch } from './first-touch';
import type { VisitorFacts } from './router';

/**
 * What a route's rules read of one page request (shared/routing.ts ROUTE_ATTRIBUTES): the visit's
 * first touch (its source, click id network, campaign texts, entry link, country, age), and per request the page language, platform, browser, in-app browser, whether the
 * visitor came back, and the hour and weekday where they are. Each is worked out only if a rule
 * asks for it, once.
 */

/** The OS family, from the `Sec-CH-UA-Platform` hint where sent, else the user agent. */
export function platformOf(userAgent: string | undefined, hint: string | undefined): Platform {
  const named = hint?.length && hint.length <= 64 ? hint.trim().replace(/^"(.*)"$/, '$1') : '';
  if (named === 'iOS') return 'ios';
  if (named === 'Android') return 'android';
  if (['Windows', 'macOS', 'Linux', 'Chrome OS', 'Chromium OS'].includes(named)) return 'desktop';
  if (!userAgent || userAgent.length > MAX_USER_AGENT_LENGTH) return 'other';
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'ios';
  if (/Android/.test(userAgent)) return 'android';
  if (/Windows NT|Macintosh|X11|CrOS/.test(userAgent)) return 'desktop';
  return 'other';
}

/** The browser, by the tokens each puts in its user agent (the most specific first). */
export function browserOf(userAgent: string | undefined, inApp: InAppBrowser | null): Browser {
  if (inApp) return 'in_app';
  if (!userAgent || userAgent.length > MAX_USER_AGENT_LENGTH) return 'other';
  if (/SamsungBrowser\//.test(userAgent)) return 'samsung';
  if (/\bEdg(?:e|A|iOS)?\//.test(userAgent)) return 'edge';
  if (/\bOPR\/|\bOPT\/|Opera/.test(userAgent)) return 'opera';
  if (/Firefox\/|FxiOS\//.test(userAgent)) return 'firefox';
  if (/CriOS\/|Chrome\//.test(userAgent)) return 'chrome';
  if (/Version\/[\d.]+.*Safari\//.test(userAgent)) return 'safari';
  return 'other';
}

/**
 * Formatters by time zone: building one costs far more than using it, and an isolate sees a
 * handful of zones. Capped, since the zone comes from the edge, not from a list we hold.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 400;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-GB', {
        timeZone,
        hour: 'numeric',
        hourCycle: 'h23',
        weekday: 'short',
      });
    } catch {
      // Not a zone this runtime knows: the visitor's time is read in UTC.
      return formatterFor('UTC');
    }
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const WEEKDAY_BY_SHORT: Record<string, Weekday> = Object.fromEntries(
  WEEKDAYS.map((day) => [day.charAt(0).toUpperCase() + day.slice(1), day]),
);

/** The hour (0–23) and weekday at `now` in `timeZone` (an IANA name; UTC when unknown). */
export function localTime(
  now: number,
  timeZone: string | null,
): { hour: number; weekday: Weekday } {
  const parts = formatterFor(timeZone || 'UTC').formatToParts(now);
  const hour = Number(parts.find((part) => part.type === 'hour')?.value);
  const short = parts.find((part) => part.type === 'weekday')?.value ?? '';
  return {
    hour: Number.isInteger(hour) && hour >= 0 && hour < 24 ? hour : new Date(now).getUTCHours(),
    weekday: WEEKDAY_BY_SHORT[short] ?? WEEKDAYS[(new Date(now).getUTCDay() + 6) % 7]!,
  };
}

export interface RequestFacts {
  firstTouch: FirstTouch;
  /**
   * The request's own country, from the visitor's address (worker/request/visit-facts.ts), which
   * a `country` condition reads: a first touch copied to a visitor elsewhere carries none of its
   * country's routes. Absent (the console's described visitor): the first touch's.
   */
  country?: string | null;
  language: string;
  userAgent: string | undefined;
  platformHint: string | undefined;
  inApp: InAppBrowser | null;
  /** The visitor came with our visitor cookie: they have been here before. */
  returning: boolean;
  /**
   * The quiz answers kept for the visit (worker/request/kept-answers.ts), which an experiment's
   * condition on an answer reads; absent where nothing reads them (a route's conditions never do).
   */
  answers?: Answers;
  /** `request.cf.timezone`. */
  timeZone: string | null;
  now: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The request's facts as the router reads them, each worked out on first use. */
export function visitorFacts(request: RequestFacts): VisitorFacts {
  const known = new Map<RouteAttribute, string | number | null>();
  const work = (attribute: RouteAttribute): string | number | null => {
    const touch = request.firstTouch;
    switch (attribute) {
      case 'source':
        return touch.source;
      case 'click_id':
        return touch.click_id ?? 'none';
      case 'utm_source':
      case 'utm_medium':
      case 'utm_campaign':
      case 'utm_content':
      case 'utm_term':
        return touch.utm[attribute.slice(4) as keyof FirstTouch['utm']];
      case 'entry':
        return touch.entry;
      case 'country':
        return request.country !== undefined ? request.country : touch.country;
      case 'visit_days':
        // A clock behind the cookie's (another edge) reads as day 0, not a negative day.
        return Math.min(30, Math.max(0, Math.floor((request.now - touch.began_at) / DAY_MS)));
      case 'language':
        return request.language;
      case 'platform':
        return platformOf(request.userAgent, request.platformHint);
      case 'browser':
        return browserOf(request.userAgent, request.inApp);
      case 'in_app':
        return request.inApp?.app ?? 'none';
      case 'visitor':
        return request.returning ? 'returning' : 'new';
      case 'hour':
      case 'weekday': {
        // One formatting gives both, and it is most of what a visitor's facts cost (about 5 µs
        // a call, `npm run bench -- routing`): an audience asking the hour often asks the day.
        const local = localTime(request.now, request.timeZone);
        known.set(
          attribute === 'hour' ? 'weekday' : 'hour',
          attribute === 'hour' ? local.weekday : local.hour,
        );
        return local[attribute];
      }
    }
  };
  return {
    get(attribute) {
      const key = answerKeyOfName(attribute);
      if (key !== null) return choiceOf(request.answers, key);
      if (known.has(attribute as RouteAttribute))
        return known.get(attribute as RouteAttribute) ?? null;
      const value = work(attribute as RouteAttribute);
      known.set(attribute as RouteAttribute, value);
      return value;
    },
  };
}

/**
 * The choice a visitor gave to the question of `key`, as a condition on an answer reads it: one
 * value; null unanswered, or for several choices or a number. A condition names only the key of
 * a single or picture choice (worker/quiz/check.ts), so a text or a day is never read here.
 */
function choiceOf(answers: Answers | undefined, key: string): string | null {
  const answer = answers !== undefined && Object.hasOwn(answers, key) ? answers[key] : undefined;
  return typeof answer === 'string' ? answer : null;
}
