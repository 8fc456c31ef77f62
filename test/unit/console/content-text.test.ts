import { describe, expect, it } from 'vitest';
import { requiredReason, screenName, sectionName } from '../../../console/kit/content-text';
import { COMPOSED_SCREENS } from '../../../screens/composed';

/**
 * The console says every screen made of sections and every section a marketer may arrange in
 * plain words, never by the id the code knows it by.
 */

const definitions = Object.entries(COMPOSED_SCREENS);

describe('the content editor’s words', () => {
  it.each(definitions)('%s has a name that says what it is, then its id', (id) => {
    expect(screenName(id)).toMatch(new RegExp(`^[A-Z][^:]+: .+ \\(${id}\\)$`));
  });

  it.each(definitions)('every section %s may show has a name of its own', (_id, definition) => {
    for (const section of Object.keys(definition!.catalogue)) {
      const name = sectionName(section);
      expect(name, section).not.toBe(section.replaceAll('_', ' '));
      expect(name, section).toMatch(/^[A-Z]/);
    }
  });

  it.each(definitions)('every section %s requires says why, without an id', (_id, definition) => {
    for (const [section, spec] of Object.entries(definition!.catalogue)) {
      if (!spec.required) continue;
      const reason = requiredReason(section, undefined);
      expect(reason, section).not.toBe('Every screen of this kind shows it.');
      expect(reason, section).not.toMatch(/_/);
    }
  });
});
