import type { AudienceCondition, AudienceDocument } from '../../shared/config/routing';
import { IN_APP_NAMES, type InAppApp } from '../../shared/in-app-browser';
import { answerKeyOfName } from '../../shared/quiz/answers';
import type { RouteAttribute } from '../../shared/routing';

/**
 * An audience as one plain sentence for the traffic map and the editor: "TikTok ads in DE, AT,
 * CH", "New visitors on iOS with utm_campaign containing "bf"". Pure, from the conditions alone;
 * the worker's router (worker/routing/router.ts) is what decides, this only says it.
 */

const AD_NETWORKS: Record<string, string> = { meta: 'Meta', tiktok: 'TikTok', google: 'Google' };

const OTHER_SOURCES: Record<string, string> = {
  organic: 'search engines',
  referral: 'other sites',
  other: 'other sources',
  direct: 'direct visits',
};

const LANGUAGES: Record<string, string> = {
  en: 'English',
  es: 'Spanish',
  de: 'German',
  fr: 'French',
  pt: 'Portuguese',
  ru: 'Russian',
  ar: 'Arabic',
};

const PLATFORMS: Record<string, string> = {
  ios: 'iOS',
  android: 'Android',
  desktop: 'desktop',
  other: 'other platforms',
};

const BROWSERS: Record<string, string> = {
  safari: 'Safari',
  chrome: 'Chrome',
  firefox: 'Firefox',
  edge: 'Edge',
  samsung: 'Samsung Internet',
  opera: 'Opera',
  in_app: 'an in-app browser',
  other: 'another browser',
};

const WEEKDAYS: Record<string, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};

/** "a", "a or b", "a, b or c". */
function either(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

const named = (names: Record<string, string>, values: AudienceCondition['values']) =>
  values.map((value) => names[String(value)] ?? String(value));

/** Hours as ranges: [9, 10, 11, 17] → "9–11, 17". */
function hourRanges(values: AudienceCondition['values']): string {
  const hours = [...new Set(values.map(Number))].sort((a, b) => a - b);
  const ranges: string[] = [];
  let start = hours[0];
  for (let index = 0; index < hours.length; index += 1) {
    const hour = hours[index] as number;
    const next = hours[index + 1];
    if (next !== hour + 1) {
      ranges.push(start === hour ? `${hour}` : `${start}–${hour}`);
      start = next;
    }
  }
  return ranges.join(', ');
}

const quoted = (values: AudienceCondition['values']) => values.map((value) => `“${value}”`);

function textPhrase(name: string, condition: AudienceCondition): string {
  const values = quoted(condition.values);
  switch (condition.operator) {
    case 'contains':
      return `with ${name} containing ${either(values)}`;
    case 'starts_with':
      return `with ${name} starting with ${either(values)}`;
    case 'not_in':
      return `with ${name} other than ${either(values)}`;
    default:
      return `with ${name} ${either(values)}`;
  }
}

/** One condition as a phrase that follows the subject: "in DE, AT, CH", "on iOS". */
function phrase(condition: AudienceCondition): string {
  const { attribute, values } = condition;
  const not = condition.operator === 'not_in';
  const key = answerKeyOfName(attribute);
  // An experiment's condition on a quiz answer: "who answered “who” child or partner".
  if (key !== null)
    return `who ${not ? 'did not answer' : 'answered'} “${key}” ${either(values.map(String))}`;
  switch (attribute) {
    case 'source':
      return `${not ? 'not from' : 'from'} ${either(sourceNames(values))}`;
    case 'click_id':
      return clickIdPhrase(condition);
    case 'country':
      return `${not ? 'outside' : 'in'} ${values.join(', ')}`;
    case 'language':
      return `with the page ${not ? 'not ' : ''}in ${either(named(LANGUAGES, values))}`;
    case 'platform':
      return `${not ? 'not on' : 'on'} ${either(named(PLATFORMS, values))}`;
    case 'browser':
      return `${not ? 'not in' : 'in'} ${either(named(BROWSERS, values))}`;
    case 'in_app': {
      const apps = values.map((value) =>
        value === 'none'
          ? 'no in-app browser'
          : `the ${IN_APP_NAMES[value as InAppApp] ?? value} in-app browser`,
      );
      return `${not ? 'not in' : 'in'} ${either(apps)}`;
    }
    case 'visitor':
      return `who are ${not ? 'not ' : ''}${either(values.map(String))}`;
    case 'hour':
      return `${not ? 'outside' : 'at'} hours ${hourRanges(values)} (their time)`;
    case 'visit_days': {
      if (!not && values.length === 1 && values[0] === 0) return 'on the day their visit began';
      const days = values.length === 1 && values[0] === 1 ? 'day' : 'days';
      return `${not ? 'not ' : ''}${either(values.map(String))} ${days} after their visit began`;
    }
    case 'weekday':
      return `${not ? 'not on' : 'on'} ${values.map((day) => WEEKDAYS[String(day)] ?? day).join(', ')}`;
    case 'entry':
      if (condition.operator === 'in' || condition.operator === 'equals') {
        return `from the link ${either(values.map((value) => `?r=${value}`))}`;
      }
      return textPhrase('the entry link', condition);
    default:
      return textPhrase(attribute, condition);
  }
}

/**
 * "with a TikTok click id", "with an ad click id" (none of: none), "without an ad click id",
 * "without a Meta or Google click id".
 */
function clickIdPhrase(condition: AudienceCondition): string {
  const networks = condition.values.filter((value) => value !== 'none').map(String);
  const none = networks.length < condition.values.length;
  const names = either(networks.map((value) => AD_NETWORKS[value] ?? value));
  const admitsNone = condition.operator === 'in' ? none : !none;
  if (condition.operator === 'in') {
    if (networks.length === 0) return 'without an ad click id';
    return `with a ${names} click id${admitsNone ? ' or none' : ''}`;
  }
  if (networks.length === 0) return 'with an ad click id';
  return `without a ${names} click id${admitsNone ? '' : ' (with another network’s)'}`;
}

function sourceNames(values: AudienceCondition['values']): string[] {
  const all = values.map(String);
  if (all.every((value) => Object.hasOwn(AD_NETWORKS, value))) {
    return [`${either(all.map((value) => AD_NETWORKS[value] as string))} ads`];
  }
  return all.map((value) =>
    Object.hasOwn(AD_NETWORKS, value)
      ? `${AD_NETWORKS[value]} ads`
      : (OTHER_SOURCES[value] ?? value),
  );
}

const is = (condition: AudienceCondition, attribute: RouteAttribute) =>
  condition.attribute === attribute && condition.operator === 'in';

/**
 * Who the sentence is about: the ad networks a group takes ("TikTok ads"), else new or
 * returning visitors, else visitors; the conditions it says are then left out of the phrases.
 */
function subjectOf(group: readonly AudienceCondition[]): {
  subject: string;
  said: AudienceCondition | null;
} {
  const source = group.find((condition) => is(condition, 'source'));
  if (source) {
    const names = sourceNames(source.values);
    const ads = names.length === 1 && names[0]?.endsWith(' ads');
    return { subject: ads ? (names[0] as string) : `Visitors from ${either(names)}`, said: source };
  }
  const visitor = group.find((condition) => is(condition, 'visitor'));
  if (visitor && visitor.values.length === 1) {
    return {
      subject: `${visitor.values[0] === 'new' ? 'New' : 'Returning'} visitors`,
      said: visitor,
    };
  }
  return { subject: 'Visitors', said: null };
}

/** One group (all of its conditions) as a sentence: "TikTok ads in DE, AT, CH on iOS". */
export function groupText(group: readonly AudienceCondition[]): string {
  const { subject, said } = subjectOf(group);
  const phrases = group.filter((condition) => condition !== said).map(phrase);
  return [subject, ...phrases].join(' ');
}

/** The audience as one sentence: its groups, any of which takes a visitor, joined by "or". */
export function audienceText(audience: AudienceDocument): string {
  if (audience.groups.length === 0) return 'Nobody (no conditions yet)';
  return audience.groups.map(groupText).join('; or ');
}
