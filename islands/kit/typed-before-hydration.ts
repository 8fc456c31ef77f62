import { type RefObject, useEffect } from 'react';

type Field = {
  ref: RefObject<HTMLInputElement | HTMLSelectElement | null>;
  /** The value the island rendered (and the server with it). */
  rendered: string;
};

/**
 * A select the visitor changed: its chosen option is not the one the server marked selected.
 * Only where the browser says so (happy-dom, for one, keeps no defaultSelected).
 */
const changedSelect = (select: HTMLSelectElement) =>
  select.options[select.selectedIndex]?.defaultSelected === false;

/** What the field holds now, when the visitor changed it; else what was rendered. */
function current({ ref, rendered }: Field): string {
  const element = ref.current;
  if (!element) return rendered;
  if (element.tagName === 'SELECT') {
    return changedSelect(element as HTMLSelectElement) ? element.value : rendered;
  }
  return element.value;
}

/**
 * What the visitor typed or chose in a server-rendered form before its island hydrated (on a
 * slow phone the form shows well before its script runs; the browser may also restore a field
 * on Back). The page shows it, but the island's state starts from the server's value, so without
 * this the form would act as if the field were empty: "Please enter…" under a filled-in field.
 * Read once, right after hydration, and handed to `adopt` when any field differs from what was
 * rendered.
 */
export function useTypedBeforeHydration(
  fields: readonly Field[],
  adopt: (values: string[]) => void,
): void {
  // Stays an effect: it reads the fields' elements.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as hydration commits.
  useEffect(() => {
    const values = fields.map(current);
    if (values.some((value, at) => value !== fields[at]?.rendered)) adopt(values);
  }, []);
}
