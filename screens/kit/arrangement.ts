/**
 * Screens made of sections, as data: the kinds of section a slot may show, a screen's composition
 * and a marketer's arrangement of it. No drawing here (./composition.tsx draws), so the config's
 * checks and the console read it without React.
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

/** A kind of section the kit has, as a slot's catalogue lists it: data only, no drawing. */
export interface SectionSpec {
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
  /**
   * The class of the element around each run of consecutive sections of a kind listed here, by
   * kind: a wide layout places such a run as one piece (the landing's pitch beside its aside),
   * whatever order a marketer gives the sections. A phone sees plain blocks.
   */
  groups?: Readonly<Partial<Record<Kind, string>>>;
  sections: readonly PlacedSection<Kind>[];
}

/** A screen made of sections: its slot, as code composes it, and the sections its slot may show. */
export interface ComposedDefinition {
  /** The step a screen of it is ('landing'): the sections it needs are its catalogue's required. */
  slot: string;
  composition: Composition;
  catalogue: Readonly<Record<string, SectionSpec>>;
}

/** Slots a sentence names by more than their id. */
const SLOT_NOUNS: Readonly<Record<string, string>> = {
  end: 'end screen',
  searching: 'searching screen',
  features: 'feature screen',
};

/** A slot as a sentence names one screen of it: 'a landing', 'an upsell', 'an end screen'. */
export function aScreenOf(slot: string): string {
  const noun = SLOT_NOUNS[slot] ?? slot;
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** A marketer's arrangement of a screen's sections: in this order, hidden or shown. */
export type Arrangement = readonly { id: string; visible: boolean }[];

/**
 * The sections a screen shows, in order: its composition's, or as the arrangement lists them
 * (a section the composition lacks is placed as its kind says). Hidden ones are left out.
 */
export function arrangedSections<Kind extends string>(
  composition: Composition<Kind>,
  catalogue: Readonly<Record<Kind, SectionSpec>>,
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
