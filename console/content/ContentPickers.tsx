import type { ContentCatalogue } from '../../shared/console-api/content';
import { SelectField } from '../SelectField';
import { useStore } from '../stores/atom';
import { $contentSelection, select } from '../stores/content-editor';
import { languageName, screenName, themeName } from './content-text';

/** Which screen, in which language and theme, the editor shows and edits. */
export function ContentPickers({ catalogue }: { catalogue: ContentCatalogue }) {
  const selection = useStore($contentSelection);
  return (
    <div className="field-row">
      <SelectField
        id="content-screen"
        label="Screen"
        value={selection.screen}
        onChange={(screen) => select({ screen, section: null })}
      >
        {catalogue.screens.map((screen) => (
          <option key={screen.id} value={screen.id}>
            {screenName(screen.id)}
          </option>
        ))}
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
        {catalogue.themes.map((theme) => (
          <option key={theme} value={theme}>
            {themeName(theme)}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
