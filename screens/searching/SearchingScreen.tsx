import type { SearchLabels, SearchVariant } from '../../islands/SearchProgress';
import { PHONE_LOOKUP_ERROR_KEYS } from '../../shared/api/error-text';
import { translatedErrorTexts } from '../error-texts';
import type { Composition } from '../kit/arrangement';
import { ComposedScreen, type SectionKind } from '../kit/composition';
import { supportSection } from '../kit/SupportLinks';
import { Testimonials } from '../kit/Testimonials';
import { trustSection } from '../kit/TrustLabels';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { SEARCHING_SECTION_SPECS, type SearchingSection } from './section-specs';

const NUMBER_TYPES = [
  'mobile',
  'fixed_line',
  'fixed_line_or_mobile',
  'voip',
  'toll_free',
  'personal_number',
] as const;

function labelsFor(t: ScreenProps['t'], variant: SearchVariant): SearchLabels {
  const steps = variant === 'ai' ? 'searching.ai_steps' : 'searching.steps';
  return {
    progress: t('searching.progress'),
    steps: {
      base_station: t(`${steps}.base_station`),
      operator: t(`${steps}.operator`),
      phone: t(`${steps}.phone`),
      located: t(`${steps}.located`),
    },
    number: t('searching.number'),
    located: t('kit.located.title'),
    locatedPhone: t('kit.located.phone_label'),
    map: t('searching.map'),
    rows: {
      carrier: t('searching.rows.carrier'),
      country: t('searching.rows.country'),
      timezone: t('searching.rows.timezone'),
      city: t('searching.rows.city'),
      location: t('searching.rows.location'),
    },
    // Keyed as libphonenumber names the types (MOBILE, FIXED_LINE, ...).
    types: Object.fromEntries(
      NUMBER_TYPES.map((type) => [type.toUpperCase(), t(`searching.types.${type}`)]),
    ),
    unknown: t('searching.unknown'),
    missingTitle: t('searching.missing_title'),
    missingText: t('searching.missing_text'),
    back: t('searching.back'),
    errors: translatedErrorTexts(t, PHONE_LOOKUP_ERROR_KEYS),
    continue: t('continue'),
  };
}

/** The visitor's query string, kept on the way back to the landing (SPEC.md §2). */
function queryOf(action: string): string {
  const at = action.indexOf('?');
  return at === -1 ? '' : action.slice(at);
}

/** The search: the animation, the number's details and map, and Continue, in one island. */
function Search({
  variant,
  t,
  continueAction,
  next,
  language,
  postedPhone,
  staticMap,
}: ScreenProps & { variant: SearchVariant }) {
  return (
    <Island
      name="SearchProgress"
      props={{
        variant,
        action: continueAction,
        next,
        backUrl: `/${queryOf(continueAction)}`,
        language,
        labels: labelsFor(t, variant),
        posted: postedPhone,
        staticMap,
      }}
    />
  );
}

/**
 * The room between the search and the testimonials a marketer adds below it: the AI search's
 * panel ends flush. Carried by the section, so the screens without it keep their CSS.
 */
const TESTIMONIALS_GAP_CSS = '.searching>.signup__testimonials{margin-block-start:16px}';

/** A variant's sections with what draws each (./section-specs.ts says what each is). */
function searchingSections(variant: SearchVariant): Record<SearchingSection, SectionKind> {
  return {
    ai_badge: {
      ...SEARCHING_SECTION_SPECS.ai_badge,
      render: ({ t }) => <p className="searching__badge">{t('searching.ai_badge')}</p>,
    },
    heading: {
      ...SEARCHING_SECTION_SPECS.heading,
      render: ({ screen, t }) => (
        <>
          {/*
            Both titles from the server; the search's island marks itself done and the CSS
            (./styles.ts) then shows the second: "Locating the number" is not true once it is.
          */}
          <h1 id="screen-title">
            <span className="searching__title">{t(`screens.${screen}.title`)}</span>
            <span className="searching__title searching__title--done">
              {t(variant === 'ai' ? 'searching.ai_steps.located' : 'searching.steps.located')}
            </span>
          </h1>
          <p className="lead">{t(variant === 'ai' ? 'searching.ai_lead' : 'searching.lead')}</p>
        </>
      ),
    },
    search: {
      ...SEARCHING_SECTION_SPECS.search,
      render: (props) => <Search {...props} variant={variant} />,
    },
    testimonials: {
      ...SEARCHING_SECTION_SPECS.testimonials,
      render: ({ t }) => (
        <>
          <style>{TESTIMONIALS_GAP_CSS}</style>
          <Testimonials t={t} ownStyle />
        </>
      ),
    },
    trust: trustSection(SEARCHING_SECTION_SPECS.trust),
    support: supportSection(SEARCHING_SECTION_SPECS.support),
  };
}

const SECTIONS: Record<SearchVariant, Record<SearchingSection, SectionKind>> = {
  classic: searchingSections('classic'),
  map_first: searchingSections('map_first'),
  ai: searchingSections('ai'),
};

/**
 * A searching screen (SPEC.md §2): heading and lead from the server, the animation, results and
 * Continue in the SearchProgress island, drawn from its sections as a marketer's content
 * arranges them. `/` with the query leads back to the flow's landing.
 */
export function SearchingScreen({
  variant,
  composition,
  ...props
}: ScreenProps & { variant: SearchVariant; composition: Composition<SearchingSection> }) {
  return <ComposedScreen props={props} composition={composition} catalogue={SECTIONS[variant]} />;
}
