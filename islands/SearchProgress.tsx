import { useEffect, useRef, useState } from 'react';
import type { Coordinates } from '../shared/api/contract';
import type { ErrorTexts, PhoneLookupErrorKey } from '../shared/api/error-text';
import type { PostedPhone } from '../shared/phone/posted-phone';
import { emit } from './analytics/emit';
import { CircularProgress } from './kit/CircularProgress';
import { ContinueButton } from './kit/ContinueButton';
import { LocatedBanner } from './kit/LocatedBanner';
import { AreaMap } from './phone/AreaMap';
import { lookupPhone, type PhoneInfo, PhoneLookupError } from './phone/lookup';
import {
  REDUCED_MOTION_SEARCH_DURATION_MS,
  SEARCH_DURATION_MS,
  SEARCH_STEPS,
  searchProgress,
  stepStates,
} from './phone/search-timeline';
import { showError } from './stores/error';
import { $map } from './stores/map';

/** How often the progress moves; small enough to look smooth, big enough to stay cheap. */
export const SEARCH_TICK_MS = 100;

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

type Phase = 'starting' | 'missing' | 'searching' | 'done' | 'failed';

function describeTimezone(timezone: string, language: string): string {
  try {
    const offset = new Intl.DateTimeFormat(language, {
      timeZone: timezone,
      timeZoneName: 'shortOffset',
    })
      .formatToParts(new Date())
      .find((part) => part.type === 'timeZoneName')?.value;
    const place = timezone.replaceAll('_', ' ');
    return offset ? `${offset} (${place})` : place;
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
      value: point ? `${degrees.format(point.lat)}, ${degrees.format(point.lng)}` : labels.unknown,
    },
  ] as const;
}

/**
 * The map's point for a located number (islands/phone/map-point.ts: geocoded, else the capital),
 * loaded once the lookup has answered; the lookup's own point if even that code cannot load.
 */
async function mapPoint(info: PhoneInfo): Promise<Coordinates | null> {
  try {
    return await (await import('./phone/map-point')).mapPointOf(info);
  } catch {
    return info.location;
  }
}

/** The point $map keeps for `phone`, if it is this number's (a reload): not geocoded again. */
function keptPoint(phone: string): Coordinates | null {
  const { numberData, initCoords } = $map.get();
  return numberData?.phone === phone ? initCoords : null;
}

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * The searching screens' animation (SPEC.md §2): the number being located step by step, with
 * the circular progress, then carrier, country, time zone, city and location on a drawn map.
 * The number comes from $map.phone (set by the landing); the data from lookupPhone(), stored in
 * $map.numberData, and the map's point from mapPoint() (SPEC.md §7 geocoding), stored in
 * $map.initCoords: until it is there the map shows the lookup's own point, then moves. Continue
 * stays off until the search has finished; it never waits for the map. Opened
 * without a number, the screen says so and links back to the landing.
 */
export default function SearchProgress({
  variant,
  action,
  next,
  backUrl,
  language,
  labels,
  posted,
}: {
  variant: SearchVariant;
  action: string;
  next: string | null;
  backUrl: string;
  language: string;
  labels: SearchLabels;
  /**
   * The number the landing's form posted before its script ran (worker/routes/phone-form.ts),
   * handed over once by the worker: it takes the place of what the island would have stored.
   */
  posted?: PostedPhone;
}) {
  // The server and the first client render both show 'starting': the number lives in the
  // browser's storage only, read after mount (or comes from the worker's post, shown at once).
  const [phase, setPhase] = useState<Phase>('starting');
  // The number as shown; the lookup reads the stored E.164 itself.
  const [phone, setPhone] = useState(posted?.phoneDisplay ?? '');
  const [progress, setProgress] = useState(0);
  const [info, setInfo] = useState<PhoneInfo | null>(null);
  const [point, setPoint] = useState<Coordinates | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const infoRef = useRef<PhoneInfo | null>(null);

  useEffect(() => {
    if (posted) {
      // As the landing's island does on Locate: a new number makes the previous lookup stale.
      $map.set({
        phone: posted.phone,
        phoneDisplay: posted.phoneDisplay,
        numberData: null,
        initCoords: null,
      });
      // SPEC.md §4 onboarding_start, which the landing's island did not get to send.
      emit('onboarding_start', { country: posted.country });
    }
    const { phone: stored, phoneDisplay } = $map.get();
    if (!stored) {
      setPhase('missing');
      return;
    }
    setPhone(phoneDisplay || stored);
    setPhase('searching');
    emit('processing_started');
    let live = true;
    const duration = prefersReducedMotion()
      ? REDUCED_MOTION_SEARCH_DURATION_MS
      : SEARCH_DURATION_MS;
    let elapsed = 0;
    const timer = setInterval(() => {
      elapsed += SEARCH_TICK_MS;
      const percent = searchProgress(elapsed, duration, infoRef.current !== null);
      setProgress(percent);
      if (percent === 100) {
        clearInterval(timer);
        setPhase('done');
      }
    }, SEARCH_TICK_MS);
    // A reload reuses the answer already kept for this number (islands/phone/lookup.ts), and
    // the point found for it.
    const kept = keptPoint(stored);
    lookupPhone(stored, { remembered: $map.get().numberData })
      .then(async (result) => {
        if (!live) return;
        infoRef.current = result;
        $map.setKey('numberData', result);
        setInfo(result);
        const found = kept ?? (await mapPoint(result));
        if (!live) return;
        $map.setKey('initCoords', found);
        setPoint(found);
      })
      .catch((error: unknown) => {
        if (!live) return;
        clearInterval(timer);
        const message =
          labels.errors[error instanceof PhoneLookupError ? error.code : 'lookup_failed'];
        setFailure(message);
        setPhase('failed');
        showError(message);
      });
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [labels.errors, posted]);

  if (phase === 'missing' || phase === 'failed') {
    return (
      <div className={`search search--${variant} search--stopped`}>
        <div className="search__notice" role="alert">
          <p className="search__notice-title">
            {phase === 'missing' ? labels.missingTitle : failure}
          </p>
          {phase === 'missing' ? <p>{labels.missingText}</p> : null}
        </div>
        <a className="button button--primary" href={backUrl}>
          {labels.back}
        </a>
        <SearchContinue action={action} next={next} label={labels.continue} disabled />
      </div>
    );
  }

  const done = phase === 'done';
  const states = stepStates(progress);
  const ringSize = variant === 'map_first' ? 112 : undefined;
  const centre = point ?? info?.location ?? null;
  return (
    <div className={`search search--${variant}${done ? ' search--done' : ''}`}>
      {variant === 'map_first' ? (
        <AreaMap centre={centre} label={labels.map} located={done} />
      ) : null}
      <div className="search__status">
        <CircularProgress value={progress} label={labels.progress} size={ringSize} />
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
          <>
            <LocatedBanner title={labels.located} phoneLabel={labels.locatedPhone} phone={phone} />
            {variant === 'map_first' ? null : (
              <AreaMap centre={centre} label={labels.map} located />
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

/** SPEC.md §2 Continue in a real form, which the page script turns into a move to `next`. */
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
    <form method="post" action={action} data-next={next ?? undefined} className="continue-form">
      <ContinueButton label={label} disabled={disabled} />
    </form>
  );
}
