import { Fragment, type ReactNode } from 'react';
import type { ScreenProps } from '../types';

/**
 * Screens made of sections: a screen is an ordered list of the kit's sections, which a marketer's
 * content document may reorder, hide or add to (shared/config/content.ts, worker/content/). The
 * screens in code are the default compositions; with no content for a screen it renders exactly
 * as its composition says.
 */

/** How one placement of a section is drawn: the variants a section has in code. */
export interface SectionOptions {
  /** The AI framing of a section that has one (claims, how it works). */
  ai?: boolean;
  /** Reviews sliding (a small island) or all listed (no script). */
  reviews?: 'slide' | 'static';
  /** A badge above the hero's heading, by its copy key. */
  badge?: string;
}

/** A kind of section the kit has, as a slot's catalogue lists it. */
export interface SectionKind {
  render(props: ScreenProps, options: SectionOptions): ReactNode;
  /**
   * The copy keys it reads, as a marketer may override them: a whole key, or a group ending in
   * '.' (every key under it); `{screen}` stands for the screen's id.
   */
  copy: readonly string[];
  /** The longest text a marketer may give one of its keys, in characters. */
  maxChars: number;
  /** Whether every screen of its slot must show it (the form the step needs, the one h1). */
  required?: true;
  /** Its placement when a marketer adds it to a screen that does not have it. */
  options?: SectionOptions;
}

/** One section placed on a screen: its kind (also its id on the screen) and how it is drawn. */
export interface PlacedSection<Kind extends string = string> {
  kind: Kind;
  options?: SectionOptions;
  /**
   * Drawn inside the screen's panel (the AI landing's tinted block): each run of consecutive
   * panel sections is wrapped in one `panelClass` element.
   */
  panel?: true;
}

/** A screen as code composes it. */
export interface Composition<Kind extends string = string> {
  /** The screen's root element classes ('screen landing landing--classic'). */
  className: string;
  /** The class of the element around a run of panel sections. */
  panelClass?: string;
  sections: readonly PlacedSection<Kind>[];
}

/** A screen made of sections: its slot, as code composes it, and the sections its slot may show. */
export interface ComposedDefinition {
  /** The step a screen of it is ('landing'): the sections it needs are its catalogue's required. */
  slot: string;
  composition: Composition;
  catalogue: Readonly<Record<string, SectionKind>>;
}

/** A marketer's arrangement of a screen's sections: in this order, hidden or shown. */
export type Arrangement = readonly { id: string; visible: boolean }[];

/**
 * The sections a screen shows, in order: its composition's, or as the arrangement lists them
 * (a section the composition lacks is placed as its kind says). Hidden ones are left out.
 */
export function arrangedSections<Kind extends string>(
  composition: Composition<Kind>,
  catalogue: Readonly<Record<Kind, SectionKind>>,
  arrangement: Arrangement | null,
): PlacedSection<Kind>[] {
  if (!arrangement) return [...composition.sections];
  const placed = new Map(composition.sections.map((section) => [section.kind, section]));
  const shown: PlacedSection<Kind>[] = [];
  for (const { id, visible } of arrangement) {
    if (!visible || !Object.hasOwn(catalogue, id)) continue;
    const kind = id as Kind;
    shown.push(placed.get(kind) ?? { kind, options: catalogue[kind].options });
  }
  return shown;
}

/** A screen drawn from its sections, each run of panel sections inside one panel. */
export function ComposedScreen<Kind extends string>({
  props,
  composition,
  catalogue,
}: {
  props: ScreenProps;
  composition: Composition<Kind>;
  catalogue: Readonly<Record<Kind, SectionKind>>;
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
    <section className={composition.className} aria-labelledby="screen-title">
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
