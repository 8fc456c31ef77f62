import type { ContentCatalogue } from '../../shared/console-api/content';
import { asScreenContent, editableScreenName, editableScreens } from '../kit/composed-screens';
import { languageName, themeName } from '../kit/content-text';
import { valueChoices } from '../kit/route-choices';
import { nameOptions, SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import { $draft } from '../kit/stores/draft';
import { openPage } from '../kit/stores/page';
import { variantNames } from './content-variants';
import { NewVariantField } from './NewVariantField';
import {
  $contentSelection,
  createVariant,
  deleteVariant,
  select,
  selectRoute,
  selectScreen,
} from './stores/content-editor';
import { followServedScreen } from './stores/served-screen';

/** Which screen, in which language and theme, the editor shows and edits. */
export function ContentPickers({ catalogue }: { catalogue: ContentCatalogue }) {
  const selection = useStore($contentSelection);
  const draft = useStore($draft);
  const screens = editableScreens(catalogue, draft?.document.content ?? null);
  return (
    <div className="field-row">
      <SelectField
        id="content-screen"
        label="Screen"
        value={selection.screen}
        onChange={(screen) => {
          selectScreen(screen);
          // The screen's own address, so Back returns to the one before.
          openPage('content', screen, null);
        }}
      >
        {nameOptions(
          screens.map((screen) => screen.id),
          (screen) => editableScreenName(draft?.document.content ?? null, screen),
        )}
      </SelectField>
      <SelectField
        id="content-language"
        label="Language"
        value={selection.language}
        onChange={(language) => select({ language })}
      >
        {catalogue.languages.map((language) => (
          <option key={language} value={language}>
            {languageName(language)}
            {catalogue.rtl.includes(language) ? ' (right to left)' : ''}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="content-theme"
        label="Theme"
        value={selection.theme}
        onChange={(theme) => select({ theme })}
      >
        {nameOptions(catalogue.themes, themeName)}
      </SelectField>
      <VariantPicker />
      <RoutePickers />
    </div>
  );
}

/**
 * The same elements on every render: React then skips the 250 options when the draft changes,
 * which re-renders the pickers on each edit.
 */
const COUNTRY_OPTIONS = valueChoices('country').map((choice) => (
  <option key={String(choice.value)} value={String(choice.value)}>
    {choice.label}
  </option>
));

/** Whose page the preview shows: a route's visitors (its flow, plans and variant), from where. */
function RoutePickers() {
  const selection = useStore($contentSelection);
  const draft = useStore($draft);
  const routes = draft?.document.routing.routes ?? [];
  return (
    <>
      <SelectField
        id="content-route"
        label="Preview as route"
        value={selection.route ?? ''}
        onChange={(route) => {
          const id = route === '' ? null : route;
          selectRoute(id);
          void followServedScreen(id);
        }}
      >
        <option value="">No route: the default visitor</option>
        {routes.map((route) => (
          <option key={route.id} value={route.id}>
            {route.id} (flow {route.flow})
          </option>
        ))}
      </SelectField>
      <SelectField
        id="content-country"
        label="Visitor’s country"
        value={selection.country}
        onChange={(country) => select({ country })}
      >
        <option value="">Where the worker places them</option>
        {COUNTRY_OPTIONS}
      </SelectField>
    </>
  );
}

/**
 * What is edited: what every visitor sees, or a content variant an experiment shows against it
 * (docs/experiments.md, "A content test"); a new variant starts as the screen.
 */
function VariantPicker() {
  const selection = useStore($contentSelection);
  const draft = useStore($draft);
  const names = draft
    ? variantNames(asScreenContent(draft.document.content, selection.screen), selection.screen)
    : [];
  return (
    <>
      <SelectField
        id="content-variant"
        label="Version"
        value={selection.variant ?? ''}
        onChange={(variant) => select({ variant: variant === '' ? null : variant })}
      >
        <option value="">What every visitor sees</option>
        {names.map((variant) => (
          <option key={variant} value={variant}>
            Variant {variant} (for a content test)
          </option>
        ))}
      </SelectField>
      <NewVariantField
        id="content-new-variant"
        label="New variant"
        placeholder="testimonials_first"
        button="Create"
        create={createVariant}
      >
        {selection.variant ? (
          <button type="button" className="button button--small" onClick={deleteVariant}>
            Delete variant {selection.variant}
          </button>
        ) : null}
      </NewVariantField>
    </>
  );
}
