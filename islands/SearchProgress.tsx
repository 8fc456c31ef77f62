import { type ReactNode, useState } from 'react';
import { areaMapUrl } from '../shared/api/area-map';
import type { Coordinates } from '../shared/api/contract';
import type { ErrorTexts, PhoneLookupErrorKey } from '../shared/api/error-text';
import type { PostedPhone } from '../shared/phone/posted-phone';
import { CircularProgress } from './kit/CircularProgress';
import { ContinueButton } from './kit/ContinueButton';
import { LocatedBanner } from './kit/LocatedBanner';
import { useWorkingStore } from './kit/use-working-store';
import { AreaMap } from './phone/AreaMap';
import type { PhoneInfo } from './phone/lookup';
import { SEARCH_STEPS, stepStates } from './phone/search-timeline';
import { searchStore } from './stores/search';

export type SearchVariant = 'classic' | 'map_first' | 'ai';

export interface SearchLabels {
  progress: string;
  /** One per SPEC.md §2 step: base station, operator, phone, located. */
  steps: Record<(typeof SEARCH_STEPS)[number], string>;
  number: string;
  /** The 'number located' banner (kit): its title and the words read before the number. */
  located: string;
  locatedPhone: string;
  map: string;
  rows: { carrier: string; country: string; timezone: string; city: string; location: string };
  /** Number types (libphonenumber) shown as the network line while the carrier is unknown. */
  types: Record<string, string>;
  unknown: string;
  missingTitle: string;
  missingText: string;
  back: string;
  /** SPEC.md §8 Phone and map texts, and the rate-limit text, by PhoneLookupError code. */
  errors: ErrorTexts<PhoneLookupErrorKey>;
  continue: string;
}

/**
 * 'GMT+1 (Berlin)': the offset in the page language and the zone's city, each kept whole and
 * isolated, so an Arabic offset and a Latin city neither reorder nor break mid-way. The city
 * alone (not 'Europe/Berlin') keeps the line on one row of a 320 px phone.
 */
function describeTimezone(timezone: string, language: string): ReactNode {
  const place = (timezone.split('/').pop() ?? timezone).replaceAll('_', ' ');
  try {
    const offset = new Intl.DateTimeFormat(language, {
      timeZone: timezone,
      timeZoneName: 'shortOffset',
    })
      .formatToParts(new Date())
      .find((part) => part.type === 'timeZoneName')?.value;
    if (!offset) return place;
    return (
      <>
        <bdi className="search__whole">{offset}</bdi> <bdi className="search__whole">({place})</bdi>
      </>
    );
  } catch {
    return timezone;
  }
}

function describeRows(
  info: PhoneInfo,
  point: Coordinates | null,
  language: string,
  labels: SearchLabels,
) {
  const countryName = info.country
    ? (new Intl.DisplayNames([language, 'en'], { type: 'region' }).of(info.country) ?? info.country)
    : labels.unknown;
  const degrees = new Intl.NumberFormat(language, {
    maximumFractionDigits: 4,
    minimumFractionDigits: 4,
  });
  return [
    {
      key: 'carrier',
      value: info.carrier ?? (info.type && labels.types[info.type]) ?? labels.unknown,
    },
    { key: 'country', value: countryName },
    {
      key: 'timezone',
      value: info.timezone ? describeTimezone(info.timezone, language) : labels.unknown,
    },
    { key: 'city', value: info.city ?? labels.unknown },
    {
      key: 'location',
      // Latitude first, whatever the page's direction.
      value: point ? (
        <bdi dir="ltr">{`${degrees.format(point.lat)}, ${degrees.format(point.lng)}`}</bdi>
      ) : (
        labels.unknown
      ),
    },
  ] as const;
}

interface SearchProgressProps {
  variant: SearchVariant;
  action: string;
  next: string | null;
  backUrl: string;
  language: string;
  labels: SearchLabels;
  /**
   * The number the landing's form posted before its script ran (worker/routes/screens/posted-forms.ts),
   * handed over once by the worker: it takes the place of what the island would have stored.
   */
  posted?: PostedPhone;
  /** Whether the worker draws the located area as a real map (worker/area-map/). */
  staticMap?: boolean;
}

/**
 * The searching screens' animation (SPEC.md §2): the number being located step by step, with
 * the circular progress, then carrier, country, time zone, city and location on a drawn map.
 * The search itself runs in ./stores/search.ts, started by reading it; until the map's point is there the map shows
 * the lookup's own point, then moves. Continue stays off until the search has finished; it never
 * waits for the map. Opened without a number, the screen says so and links back to the landing.
 */
export default function SearchProgress(props: SearchProgressProps) {
  const { variant, action, next, labels, posted } = props;
  const [$search] = useState(() => searchStore(labels.errors, posted));
  const search = useWorkingStore($search);

  const { phase, progress, phone, info } = search;
  if (phase === 'missing' || phase === 'failed') {
    // Opened without a number, or the lookup failed: the reason and the way back.
    return (
      <div className={`search search--${variant} search--stopped`}>
        <div className="search__notice" role="alert">
          <p className="search__notice-title">
            {phase === 'missing' ? labels.missingTitle : search.failure}
          </p>
          {phase === 'missing' ? <p>{labels.missingText}</p> : null}
        </div>
        <a className="button button--primary" href={props.backUrl}>
          {labels.back}
        </a>
        <SearchContinue action={action} next={next} label={labels.continue} disabled />
      </div>
    );
  }
  const done = phase === 'done';
  const states = stepStates(progress);
  const centre = search.point ?? info?.location ?? null;
  // Only the geocoded point can be drawn: the worker signed it for this visitor.
  const image = done && props.staticMap && search.point ? areaMapUrl(search.point) : null;
  return (
    <div className={`search search--${variant}${done ? ' search--done' : ''}`}>
      {variant === 'map_first' ? (
        <AreaMap centre={centre} label={labels.map} located={done} image={image} />
      ) : null}
      <div className="search__status">
        <CircularProgress
          value={progress}
          label={labels.progress}
          size={variant === 'map_first' ? 112 : undefined}
        />
        <p className="search__number">
          <span className="search__number-label">{labels.number}</span>
          <span className="search__number-value" dir="ltr">
            {phone || '\u00a0'}
          </span>
        </p>
      </div>
      <ol className="search__steps">
        {SEARCH_STEPS.map((step, index) => (
          <li key={step} className={`search__step search__step--${states[index]}`}>
            {labels.steps[step]}
          </li>
        ))}
      </ol>
      <div role="status" className="search__result">
        {done && info ? (
          <SearchResult {...props} info={info} centre={centre} phone={phone} image={image} />
        ) : null}
      </div>
      <SearchContinue
        action={action}
        next={next}
        label={labels.continue}
        disabled={phase === 'searching'}
      />
    </div>
  );
}

/** The located number: the banner, the map (unless it is on top already) and the rows. */
function SearchResult({
  variant,
  language,
  labels,
  info,
  centre,
  phone,
  image,
}: SearchProgressProps & {
  info: PhoneInfo;
  centre: Coordinates | null;
  phone: string;
  image: string | null;
}) {
  return (
    <>
      <LocatedBanner title={labels.located} phoneLabel={labels.locatedPhone} phone={phone} />
      {variant === 'map_first' ? null : (
        <AreaMap centre={centre} label={labels.map} located image={image} />
      )}
      <dl className="search__rows">
        {describeRows(info, centre, language, labels).map((row) => (
          <div key={row.key} className="search__row">
            <dt>{labels.rows[row.key]}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/**
 * SPEC.md §2 Continue in a real form, which the page script turns into a move to `next`, pinned
 * to the bottom of a phone's screen (the screens set `bottomButton`, screens/kit/BottomButton):
 * below the animation, the details and the map it sat some 1200 px down a 390 px phone.
 */
function SearchContinue({
  action,
  next,
  label,
  disabled,
}: {
  action: string;
  next: string | null;
  label: string;
  disabled: boolean;
}) {
  return (
    <div className="bottom-button">
      <form method="post" action={action} data-next={next ?? undefined} className="continue-form">
        <ContinueButton label={label} disabled={disabled} />
      </form>
    </div>
  );
}
