import { useState } from 'react';
import { brandOf } from '../../shared/brand';
import { THEMES, type Theme } from '../../shared/theme';
import { nameOptions, SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import { $draft, editContent } from '../kit/stores/draft';
import { $review } from '../kit/stores/review';
import { type BrandPath, brandFieldText, withBrand, withBrandField } from './brand-edits';
import { CheckedField } from './CheckedField';

/**
 * Each theme's brand (docs/marketers.md, "A theme's brand"): the name, tab title, site, support
 * address, logo, tab icon, legal links and store listings its pages wear. A theme the draft
 * gives no brand shows the brand in code, and its first edit copies that brand whole into the
 * draft; "Wear the brand in code" takes it out again. The check's refusals show at their field.
 */

const FIELDS: readonly { path: BrandPath; label: string; long?: true }[] = [
  { path: 'name', label: 'Name (the logo’s label, {{brand}} in the copy)' },
  { path: 'titleSuffix', label: 'End of the tab’s title' },
  { path: 'host', label: 'Site (such as geozilla.com)' },
  { path: 'supportEmail', label: 'Support email' },
  { path: 'logos.header.src', label: 'Logo, a file on this site (such as /logos/geozilla.svg)' },
  { path: 'logos.header.width', label: 'Logo width in pixels' },
  { path: 'logos.header.height', label: 'Logo height in pixels' },
  { path: 'links.terms', label: 'Terms of use (https://…)' },
  { path: 'links.privacy', label: 'Privacy policy (https://…)' },
  { path: 'links.subscriptionTerms', label: 'Subscription terms (https://…)' },
  { path: 'stores.appStore', label: 'App Store listing (https://…)' },
  { path: 'stores.googlePlay', label: 'Google Play listing (https://…)' },
  { path: 'favicon', label: 'Tab icon, an SVG document', long: true },
];

export function BrandEditor() {
  const draft = useStore($draft);
  const review = useStore($review);
  const [theme, setTheme] = useState<Theme>(THEMES[0]);
  if (!draft) return null;
  const own = draft.document.content.brands?.[theme];
  const brand = brandOf(draft.document.content.brands, theme);
  const errors = review.kind === 'invalid' ? review.errors : [];
  return (
    <fieldset className="content-copy brand-editor">
      <legend>Brands</legend>
      <p className="muted">
        Every page of a theme wears its brand: nothing in the screens names one. Edits go into the
        draft; review and publish them with the rest.
      </p>
      <SelectField
        id="brand-theme"
        label="Theme"
        value={theme}
        onChange={(value) => setTheme(value as Theme)}
      >
        {nameOptions(THEMES)}
      </SelectField>
      <p role="status">
        {own ? `${theme} wears the draft’s brand.` : `${theme} wears the brand in code.`}
      </p>
      {FIELDS.map(({ path, label, long }) => {
        const id = `brand-${path.replaceAll('.', '-')}`;
        const problem = errors.find((e) => e.path === `content.brands.${theme}.${path}`);
        const edit = (event: { target: { value: string } }) =>
          editContent((content) =>
            withBrand(content, theme, withBrandField(brand, path, event.target.value)),
          );
        const value = brandFieldText(brand, path);
        return (
          <CheckedField
            key={path}
            id={id}
            label={label}
            problem={problem?.message}
            control={(aria) =>
              long ? (
                <textarea
                  id={id}
                  className="input"
                  rows={4}
                  value={value}
                  {...aria}
                  onChange={edit}
                />
              ) : (
                <input
                  id={id}
                  className="input"
                  dir="ltr"
                  value={value}
                  {...aria}
                  onChange={edit}
                />
              )
            }
          />
        );
      })}
      {own ? (
        <button
          type="button"
          className="button button--small"
          onClick={() => editContent((content) => withBrand(content, theme, undefined))}
        >
          Wear the brand in code on {theme}
        </button>
      ) : null}
    </fieldset>
  );
}
