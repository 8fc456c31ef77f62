import { describe, expect, it } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import {
  contentLanguageNotes,
  copyLanguageNotes,
  languagesWithoutText,
} from '../../../worker/content/languages';
import { HASHED_PLACEMENT } from '../../../worker/experiments/assignment/assign';
import { assignExperiments, compileExperiments } from '../../../worker/experiments/config/evaluate';

/**
 * Copy in one language at a time (worker/content/languages.ts): what each other language's
 * visitors see of an English change, said once for the console, and the edge's rule that a test
 * whose variant lacks a language's text takes none of its visitors.
 */

const TITLE = 'screens.one_pager.title';
const OTHERS = ['ar', 'de', 'es', 'fr', 'pt', 'ru'];
const where = (notes: { path: string; kind: string }[]) =>
  notes.map((note) => `${note.path} ${note.kind}`);

describe('what other languages see of an English change', () => {
  it('a screen’s changed English: every language not given at the screen is outdated', () => {
    const content: ContentDocument = {
      screens: { one_pager: { copy: { en: { [TITLE]: 'New' }, de: { [TITLE]: 'Neu' } } } },
    };
    expect(where(contentLanguageNotes(content))).toEqual(
      OTHERS.filter((l) => l !== 'de').map(
        (l) => `content.screens.one_pager.copy.${l}.${TITLE} outdated`,
      ),
    );
    // English as bundled is no change: nothing to say.
    const same = {
      screens: { one_pager: { copy: { en: { [TITLE]: 'Find out where your loved ones are' } } } },
    };
    expect(contentLanguageNotes(same)).toEqual([]);
  });

  it('a variant’s English against its screen’s: untested where the variant lacks it', () => {
    const content: ContentDocument = {
      screens: {
        one_pager: {
          copy: Object.fromEntries(['en', ...OTHERS].map((l) => [l, { [TITLE]: `new ${l}` }])),
          variants: {
            // The screen's English again: the screen's translations hold for it.
            same: { copy: { en: { [TITLE]: 'new en' } } },
            other: { copy: { en: { [TITLE]: 'Other' }, fr: { [TITLE]: 'Autre' } } },
          },
        },
      },
    };
    expect(where(contentLanguageNotes(content))).toEqual(
      OTHERS.filter((l) => l !== 'fr').map(
        (l) => `content.screens.one_pager.variants.other.copy.${l}.${TITLE} untested`,
      ),
    );
    expect([...languagesWithoutText(content, { one_pager: 'other' })].sort()).toEqual(
      OTHERS.filter((l) => l !== 'fr'),
    );
    expect(languagesWithoutText(content, { one_pager: 'same' }).size).toBe(0);
  });

  it('a counted text asks for each plural form the language has; a composed screen at its path', () => {
    const content: ContentDocument = {
      screens: {},
      composed: {
        spring: {
          slot: 'landing',
          from: 'one_pager',
          copy: { en: { 'i18n.day_count_one': '{{count}} sunny day' } },
        },
      },
    };
    const russian = contentLanguageNotes(content).filter((note) => note.language === 'ru');
    expect(russian.map((note) => note.path)).toEqual(
      ['one', 'few', 'many', 'other'].map(
        (form) => `content.composed.spring.copy.ru.i18n.day_count_${form}`,
      ),
    );
  });

  it('the Copy area’s English change, at the copy’s paths', () => {
    expect(where(copyLanguageNotes({ en: { [TITLE]: 'New' }, es: { [TITLE]: 'Nuevo' } }))).toEqual(
      OTHERS.filter((l) => l !== 'es').map((l) => `copy.${l}.${TITLE} outdated`),
    );
  });
});

describe('a test whose variant lacks a language', () => {
  const content: ContentDocument = {
    screens: { one_pager: { variants: { b: { copy: { en: { [TITLE]: 'Only English' } } } } } },
  };
  const test: ExperimentDocument = {
    name: 'English headline',
    status: 'running',
    layer: 'landing',
    audience: {},
    coverage: 1,
    seed: 'english',
    phase: 1,
    control: 'a',
    variants: {
      a: { weight: 1, change: {} },
      b: { weight: 1, change: { content: { one_pager: 'b' } } },
    },
  };
  const compiled = compileExperiments(
    { version: 'v1', experiments: { english: test } },
    DEFAULT_SPLIT,
    DEFAULT_ROUTING,
    content,
  );
  const drawn = (language: string | null) =>
    Array.from(
      { length: 20 },
      (_, n) =>
        assignExperiments(
          compiled,
          {
            visitorId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
            route: 'default',
            facts: { get: (attribute) => (attribute === 'language' ? language : null) },
            pins: new Map(),
            now: 0,
          },
          HASHED_PLACEMENT,
        ).filter((assignment) => assignment.experiment === 'english').length,
    ).reduce((sum, n) => sum + n, 0);

  it('draws no visitor of that language, every visitor of the languages it has', () => {
    expect(drawn('en')).toBe(20);
    expect(drawn('de')).toBe(0);
    expect(drawn('ar')).toBe(0);
  });
});
