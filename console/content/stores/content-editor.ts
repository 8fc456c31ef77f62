import type { ContentDocument, ReviewRating } from '../../../shared/config/content';
import type {
  ComposedScreenChoice,
  ContentCatalogue,
  ContentPreviewAnswer,
} from '../../../shared/console-api/content';
import type { FieldError } from '../../../shared/console-api/errors';
import type { LanguageNote } from '../../../shared/console-api/languages';
import type { PictureRecord } from '../../../shared/console-api/pictures';
import { asScreenContent, editableScreens, throughComposed } from '../../kit/composed-screens';
import { sectionName } from '../../kit/content-text';
import { atom } from '../../kit/stores/atom';
import { $draft, editContent } from '../../kit/stores/draft';
import { type Loaded, loadedFrom, refusalText } from '../../kit/stores/loaded';
import {
  deleteLibraryPicture,
  fetchContentCatalogue,
  fetchContentLanguages,
  fetchContentPreview,
  fetchPictureLibrary,
  uploadPicture,
} from '../content-api';
import {
  arrangementOf,
  withCopy,
  withScreen,
  withSectionAdded,
  withSectionMovedTo,
  withSectionRemoved,
  withSectionVisible,
} from '../content-edits';
import { withPictureAlt, withPictureChosen } from '../content-picture';
import { previewRouteOf, routeVariantOf } from '../content-routes';
import {
  contentView,
  previewedContent,
  variantNameProblem,
  withNewVariant,
  withoutVariant,
  withView,
} from '../content-variants';

/**
 * The content editor's state: what it offers (the worker's catalogue), what the marketer looks
 * at (screen, language, theme, section, width), the preview of the draft, and the last
 * structural change said aloud. The edits themselves go into the console's draft, as every
 * area's do (../../kit/stores/draft.ts), and are published with it.
 */

export type CatalogueState = Loaded<{ catalogue: ContentCatalogue }>;

export const $contentCatalogue = atom<CatalogueState>({ kind: 'loading' });

export interface ContentSelection {
  screen: string;
  language: string;
  theme: string;
  /** The section whose copy is shown; null: the first. */
  section: string | null;
  /** The content variant edited (an experiment shows it); null: what every visitor sees. */
  variant: string | null;
  width: 'phone' | 'desktop';
  /** The route of the draft's routing whose visitors the preview shows; null: the default's. */
  route: string | null;
  /** The visitor's country the preview shows (`DE`); '': the worker's own default. */
  country: string;
}

export const $contentSelection = atom<ContentSelection>({
  screen: 'one_pager',
  language: 'en',
  theme: 'geozilla',
  section: null,
  variant: null,
  width: 'phone',
  route: null,
  country: '',
});

export type PreviewState =
  | { kind: 'idle' }
  | { kind: 'loading'; html: string | null }
  | { kind: 'ready'; html: string; issues: FieldError[] }
  | { kind: 'failed'; message: string };

export const $contentPreview = atom<PreviewState>({ kind: 'idle' });

/** What a polite live region says of the last structural change ("Reviews moved to …"). */
export const $contentAnnouncement = atom('');

export async function loadContentCatalogue(): Promise<void> {
  const answer = await fetchContentCatalogue();
  $contentCatalogue.set(loadedFrom(answer, (catalogue) => ({ catalogue })));
}

/** The selected screen's catalogue entry, if the catalogue is loaded. */
function selectedScreen(): ComposedScreenChoice | undefined {
  const state = $contentCatalogue.get();
  if (state.kind !== 'ready') return undefined;
  const { screen } = $contentSelection.get();
  return editableScreens(state.catalogue, draftContent()).find((each) => each.id === screen);
}

export function select(change: Partial<ContentSelection>): void {
  $contentSelection.set({ ...$contentSelection.get(), ...change });
}

function draftContent(): ContentDocument | null {
  return $draft.get()?.document.content ?? null;
}

/** What the editor shows and edits: the draft's content, or the selected variant's view of it. */
function viewedContent(): ContentDocument | null {
  const content = draftContent();
  const screen = selectedScreen();
  if (!content || !screen) return content;
  return contentView(
    asScreenContent(content, screen.id),
    screen.id,
    $contentSelection.get().variant,
  );
}

/** An edit of what the editor shows, written into the draft (into the variant, if one is). */
function editSelected(change: (view: ContentDocument) => ContentDocument): void {
  const screen = selectedScreen();
  if (!screen) return;
  const { variant } = $contentSelection.get();
  editContent((current) =>
    throughComposed(current, screen.id, (view) =>
      withView(
        view,
        screen.id,
        variant,
        change(contentView(view, screen.id, variant)),
        screen.composition,
      ),
    ),
  );
}

/**
 * Previews the screen as route `id`'s visitors see it (null: the default visitor), and edits
 * the content variant the route shows of it, if it shows one.
 */
export function selectRoute(id: string | null): void {
  const document = $draft.get()?.document;
  const { screen } = $contentSelection.get();
  const variant = document ? routeVariantOf(document, id, screen) : null;
  select({ route: id, variant });
  if (id === null) $contentAnnouncement.set('The preview shows the default visitor.');
  else {
    const shows = variant ? `: it shows variant ${variant}, which edits now change` : '';
    $contentAnnouncement.set(`The preview shows route ${id}’s visitors${shows}.`);
  }
}

/** Another screen, shown as the selected route shows it. */
export function selectScreen(screen: string): void {
  const document = $draft.get()?.document;
  const { route } = $contentSelection.get();
  const variant = document ? routeVariantOf(document, route, screen) : null;
  select({ screen, section: null, variant });
}

/**
 * Starts a content variant of the screen and edits it; null when made, else why not (a name an
 * experiment cannot name, or one taken).
 */
export function createVariant(name: string): string | null {
  const screen = selectedScreen();
  const content = draftContent();
  if (!screen || !content) return null;
  const problem = variantNameProblem(asScreenContent(content, screen.id), screen.id, name);
  if (problem) return problem;
  editContent((current) =>
    throughComposed(current, screen.id, (view) => withNewVariant(view, screen.id, name)),
  );
  select({ variant: name });
  $contentAnnouncement.set(`Variant ${name} created: edits now change it.`);
  return null;
}

/** Deletes the edited variant; the editor goes back to what every visitor sees. */
export function deleteVariant(): void {
  const screen = selectedScreen();
  const { variant } = $contentSelection.get();
  if (!screen || variant === null) return;
  editContent((current) =>
    throughComposed(current, screen.id, (view) => withoutVariant(view, screen.id, variant)),
  );
  select({ variant: null });
  $contentAnnouncement.set(`Variant ${variant} deleted.`);
}

/** Moves a section from `from` to `to` and says where it is now. */
export function moveSectionTo(from: number, to: number): void {
  const screen = selectedScreen();
  const content = viewedContent();
  if (!screen || !content) return;
  const rows = arrangementOf(content, screen);
  const row = rows[from];
  if (!row || to < 0 || to >= rows.length || from === to) return;
  editSelected((current) => withSectionMovedTo(current, screen, from, to));
  $contentAnnouncement.set(`${sectionName(row.id)} moved to position ${to + 1} of ${rows.length}.`);
}

export function setSectionVisible(id: string, visible: boolean): void {
  const screen = selectedScreen();
  if (!screen) return;
  const before = draftContent();
  editSelected((current) => withSectionVisible(current, screen, id, visible));
  if (draftContent() !== before) {
    $contentAnnouncement.set(`${sectionName(id)} ${visible ? 'shown' : 'hidden'}.`);
  }
}

export function addSection(id: string): void {
  const screen = selectedScreen();
  const content = viewedContent();
  if (!screen || !content) return;
  editSelected((current) => withSectionAdded(current, screen, id));
  const rows = arrangementOf(viewedContent() ?? content, screen);
  const at = rows.findIndex((row) => row.id === id);
  $contentAnnouncement.set(`${sectionName(id)} added at position ${at + 1} of ${rows.length}.`);
  select({ section: id });
}

export function removeSection(id: string): void {
  const screen = selectedScreen();
  if (!screen) return;
  const before = draftContent();
  editSelected((current) => withSectionRemoved(current, screen, id));
  if (draftContent() === before) return;
  $contentAnnouncement.set(`${sectionName(id)} removed.`);
  if ($contentSelection.get().section === id) select({ section: null });
}

/** A copy key's text in a language; the text shown anyway (`base`) takes the override out. */
export function setText(language: string, key: string, text: string): void {
  const state = $contentCatalogue.get();
  if (state.kind !== 'ready') return;
  const base = state.catalogue.texts[language]?.[key];
  const screen = $contentSelection.get().screen;
  editSelected((current) => withCopy(current, screen, { language, key, text, base }));
}

/** Gives the override back: the field shows the bundled or live copy again. */
export function resetText(language: string, key: string): void {
  const screen = $contentSelection.get().screen;
  editSelected((current) =>
    withCopy(current, screen, { language, key, text: undefined, base: undefined }),
  );
}

/** How long the preview waits for the marketer to stop typing. */
const PREVIEW_DELAY_MS = 350;

/**
 * Draws the preview again whenever the draft or the selection changes, once edits pause; the
 * answer of an older request is dropped. The returned function stops it.
 */
export function followPreview(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  let last = '';
  const refresh = () => {
    const draft = $draft.get();
    const { screen, language, theme, variant, route, country } = $contentSelection.get();
    // Nothing to draw before the catalogue names the screen.
    if (!draft || !selectedScreen()) return;
    const content = throughComposed(draft.document.content, screen, (view) =>
      previewedContent(view, screen, variant),
    );
    const request = {
      screen,
      language,
      theme,
      content,
      route: previewRouteOf(draft.document, route),
      country: country || null,
    };
    const key = JSON.stringify(request);
    if (key === last) return;
    last = key;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const ticket = ++asked;
      const shown = $contentPreview.get();
      $contentPreview.set({ kind: 'loading', html: 'html' in shown ? shown.html : null });
      const answer = await fetchContentPreview(request);
      if (ticket !== asked) return;
      $contentPreview.set(previewStateOf(answer));
    }, PREVIEW_DELAY_MS);
  };
  const stops = [$draft, $contentSelection, $contentCatalogue].map((store) =>
    store.subscribe(refresh),
  );
  refresh();
  const stopNotes = followLanguageNotes();
  return () => {
    clearTimeout(timer);
    for (const stop of stops) stop();
    stopNotes();
  };
}

/**
 * What the worker's validator says visitors in each other language see of the draft content's
 * English changes (every screen's and variant's: shared/console-api/languages.ts); none until
 * it answered, and the last answer kept while a draft it cannot read is being typed.
 */
export const $contentLanguages = atom<LanguageNote[]>([]);

/** Asks the worker for $contentLanguages whenever the draft's content changes, once edits pause. */
function followLanguageNotes(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  let last = '';
  const refresh = () => {
    const content = $draft.get()?.document.content;
    const key = JSON.stringify(content ?? null);
    // Nothing to say before the editor shows a screen.
    if (!content || !selectedScreen() || key === last) return;
    last = key;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const ticket = ++asked;
      const answer = await fetchContentLanguages(content);
      if (ticket === asked && answer.ok) $contentLanguages.set(answer.value.languages);
    }, PREVIEW_DELAY_MS);
  };
  const stops = [$draft, $contentCatalogue].map((store) => store.subscribe(refresh));
  refresh();
  return () => {
    clearTimeout(timer);
    for (const stop of stops) stop();
  };
}

function previewStateOf(answer: Awaited<ReturnType<typeof fetchContentPreview>>): PreviewState {
  if (answer.ok) {
    const { html, issues }: ContentPreviewAnswer = answer.value;
    return { kind: 'ready', html, issues };
  }
  const { refusal } = answer;
  if (refusal.kind === 'invalid') {
    return { kind: 'ready', html: '', issues: refusal.errors };
  }
  return { kind: 'failed', message: refusalText(refusal) };
}

/** The picture library, as the console last read it, and what the last upload said. */
export type LibraryState = Loaded<{ pictures: PictureRecord[]; said: string }>;

export const $pictureLibrary = atom<LibraryState>({ kind: 'loading' });

export async function loadPictureLibrary(): Promise<void> {
  const answer = await fetchPictureLibrary();
  $pictureLibrary.set(loadedFrom(answer, ({ pictures }) => ({ pictures, said: '' })));
}

/** The screen (or the edited variant) shows `picture`. */
export function choosePicture(picture: PictureRecord): void {
  const { screen } = $contentSelection.get();
  editSelected((current) => withPictureChosen(current, screen, picture));
  $contentAnnouncement.set('Picture chosen: describe it in every language.');
}

/**
 * The rating the screen's reviews show, on the screen itself whatever variant is open: a variant
 * does not change it (shared/config/content.ts). Undefined takes it out.
 */
export function setRating(rating: ReviewRating | undefined): void {
  const screen = selectedScreen();
  if (!screen) return;
  editContent((current) =>
    throughComposed(current, screen.id, (view) =>
      withScreen(view, screen.id, (own) => ({ ...own, rating })),
    ),
  );
}

export function setPictureAlt(language: string, text: string): void {
  const { screen } = $contentSelection.get();
  editSelected((current) => withPictureAlt(current, screen, language, text));
}

/** Uploads a file to the library and, once it is there, shows it on the screen. */
export async function addPicture(file: Blob): Promise<void> {
  const answer = await uploadPicture(file);
  const library = $pictureLibrary.get();
  const pictures = library.kind === 'ready' ? library.pictures : [];
  if (!answer.ok) {
    $pictureLibrary.set({ kind: 'ready', pictures, said: answer.message });
    return;
  }
  const { picture, created } = answer.value;
  const others = pictures.filter((each) => each.id !== picture.id);
  $pictureLibrary.set({
    kind: 'ready',
    pictures: [picture, ...others],
    said: created ? 'Uploaded.' : 'This file was already in the library.',
  });
  choosePicture(picture);
}

/**
 * Deletes a picture from the library, for good; refused, naming where, while the live content or
 * this draft shows it.
 */
export async function removePicture(picture: PictureRecord): Promise<boolean> {
  const answer = await deleteLibraryPicture(picture.id, draftContent());
  const library = $pictureLibrary.get();
  const pictures = library.kind === 'ready' ? library.pictures : [];
  $pictureLibrary.set(
    answer.ok
      ? {
          kind: 'ready',
          pictures: pictures.filter((each) => each.id !== picture.id),
          said: 'Picture deleted.',
        }
      : { kind: 'ready', pictures, said: answer.message },
  );
  return answer.ok;
}
