import { Fragment, type ReactNode } from 'react';
import type { ScreenProps } from '../types';
import {
  arrangedSections,
  type Composition,
  type PlacedSection,
  type SectionOptions,
  type SectionSpec,
} from './arrangement';

/**
 * Screens made of sections: a screen is an ordered list of the kit's sections, which a marketer's
 * content document may reorder, hide or add to (shared/config/content.ts, worker/content/). The
 * screens in code are the default compositions; with no content for a screen it renders exactly
 * as its composition says.
 */

/** A kind of section with what draws it. */
export interface SectionKind extends SectionSpec {
  render(props: ScreenProps, options: SectionOptions): ReactNode;
}

/** A screen drawn from its sections, each run of panel sections inside one panel. */
export function ComposedScreen<Kind extends string>({
  props,
  composition,
  catalogue,
  className = composition.className,
}: {
  props: ScreenProps;
  composition: Composition<Kind>;
  catalogue: Readonly<Record<Kind, SectionKind>>;
  /** The root's classes where they depend on the visitor (a checkout without PayPal). */
  className?: string;
}) {
  const sections = arrangedSections(composition, catalogue, props.arrangement ?? null);
  const runs: { panel: boolean; sections: PlacedSection<Kind>[] }[] = [];
  for (const section of sections) {
    const panel = section.panel === true && composition.panelClass !== undefined;
    const last = runs.at(-1);
    if (last && last.panel === panel && panel) last.sections.push(section);
    else runs.push({ panel, sections: [section] });
  }
  const draw = (section: PlacedSection<Kind>) => (
    <Fragment key={section.kind}>
      {catalogue[section.kind].render(props, section.options ?? {})}
    </Fragment>
  );
  return (
    <section className={className} aria-labelledby="screen-title">
      {runs.map((run) =>
        run.panel ? (
          <div key={`panel-${run.sections[0]?.kind}`} className={composition.panelClass}>
            {run.sections.map(draw)}
          </div>
        ) : (
          run.sections.map(draw)
        ),
      )}
    </section>
  );
}
