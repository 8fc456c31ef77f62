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

/** Consecutive sections that share a key, in order: each run keeps the key of its sections. */
function runsOf<Section, Key>(
  sections: readonly Section[],
  keyOf: (section: Section) => Key,
): { key: Key; sections: Section[] }[] {
  const runs: { key: Key; sections: Section[] }[] = [];
  for (const section of sections) {
    const key = keyOf(section);
    const last = runs.at(-1);
    if (last && last.key === key) last.sections.push(section);
    else runs.push({ key, sections: [section] });
  }
  return runs;
}

/**
 * A screen drawn from its sections: each run of sections of one group inside that group's
 * element, and within it each run of panel sections inside one panel.
 */
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
  const draw = (section: PlacedSection<Kind>) => (
    <Fragment key={section.kind}>
      {catalogue[section.kind].render(props, section.options ?? {})}
    </Fragment>
  );
  const drawPanels = (run: PlacedSection<Kind>[]) =>
    runsOf(run, (section) => section.panel === true && composition.panelClass !== undefined).map(
      (panelRun) =>
        panelRun.key ? (
          <div key={`panel-${panelRun.sections[0]?.kind}`} className={composition.panelClass}>
            {panelRun.sections.map(draw)}
          </div>
        ) : (
          panelRun.sections.map(draw)
        ),
    );
  return (
    <section className={className} aria-labelledby="screen-title">
      {runsOf(sections, (section) => composition.groups?.[section.kind]).map((group) =>
        group.key ? (
          <div key={`group-${group.sections[0]?.kind}`} className={group.key}>
            {drawPanels(group.sections)}
          </div>
        ) : (
          drawPanels(group.sections)
        ),
      )}
    </section>
  );
}

/** A screen that is its composition drawn from its catalogue, whoever the visitor is. */
export function composedScreen<Kind extends string>(
  composition: Composition<Kind>,
  catalogue: Readonly<Record<Kind, SectionKind>>,
) {
  return function Screen(props: ScreenProps) {
    return <ComposedScreen props={props} composition={composition} catalogue={catalogue} />;
  };
}
