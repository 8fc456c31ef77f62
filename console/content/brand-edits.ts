import type { Brand } from '../../shared/brand';
import type { ContentDocument } from '../../shared/config/content';
import type { Theme } from '../../shared/theme';

/**
 * A theme's brand in the content document (shared/config/brands.ts), edited field by field but
 * always written whole: the document takes a brand whole, so a page never mixes one brand's name
 * with another's links. Pure, as ./content-edits.ts is.
 */

/** A brand's field by its path in the document (`links.terms`, `logos.header.width`). */
export type BrandPath =
  | 'name'
  | 'titleSuffix'
  | 'host'
  | 'supportEmail'
  | 'logos.header.src'
  | 'logos.header.width'
  | 'logos.header.height'
  | 'links.terms'
  | 'links.privacy'
  | 'links.subscriptionTerms'
  | 'stores.appStore'
  | 'stores.googlePlay'
  | 'favicon';

/** The field's value as a text field shows it. */
export function brandFieldText(brand: Brand, path: BrandPath): string {
  let value: unknown = brand;
  for (const key of path.split('.')) value = (value as Record<string, unknown>)[key];
  return value === undefined || value === null ? '' : String(value);
}

/**
 * `brand` with one field set. A size that is a whole number is written as a number; any other
 * text is written as typed, for the check to refuse at its path rather than the form to drop it.
 */
export function withBrandField(brand: Brand, path: BrandPath, text: string): Brand {
  const value: unknown =
    path.startsWith('logos.header.') && path !== 'logos.header.src'
      ? /^\d{1,4}$/.test(text.trim())
        ? Number(text.trim())
        : text
      : text;
  const keys = path.split('.');
  const set = (object: Record<string, unknown>, at: number): Record<string, unknown> => {
    const key = keys[at] as string;
    if (at === keys.length - 1) return { ...object, [key]: value };
    return { ...object, [key]: set(object[key] as Record<string, unknown>, at + 1) };
  };
  return set(brand as unknown as Record<string, unknown>, 0) as unknown as Brand;
}

/** The document with `theme`'s brand; undefined: the theme wears the brand in code again. */
export function withBrand(
  content: ContentDocument,
  theme: Theme,
  brand: Brand | undefined,
): ContentDocument {
  const { [theme]: _old, ...others } = content.brands ?? {};
  const brands = brand ? { ...others, [theme]: brand } : others;
  const { brands: _brands, ...rest } = content;
  return Object.keys(brands).length > 0 ? { ...rest, brands } : rest;
}
