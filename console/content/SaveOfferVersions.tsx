import { SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import { $draft, editContent } from '../kit/stores/draft';
import { newVariantNameProblem } from './content-variants';
import { NewVariantField } from './NewVariantField';
import {
  type OfferVersion,
  offerVariantNames,
  withNewOfferVariant,
  withoutOfferVariant,
} from './save-offer-edits';

/**
 * Which save offer the editor writes (docs/marketers.md, "Testing a save offer"): the offer as
 * written, or one of its variants, which a save offer test shows to its arm instead; a new
 * variant shows the offer until it writes its own words, and a removed one leaves the draft.
 */
export function SaveOfferVersions({
  version,
  onVersion,
}: {
  version: OfferVersion;
  onVersion(version: OfferVersion): void;
}) {
  const draft = useStore($draft);
  const names = draft ? offerVariantNames(draft.document.content) : [];
  const create = (name: string) => {
    const refused = newVariantNameProblem(names, name);
    if (refused !== null) return refused;
    editContent((content) => withNewOfferVariant(content, name));
    onVersion(name);
    return null;
  };
  const remove = (gone: string) => {
    editContent((content) => withoutOfferVariant(content, gone));
    onVersion(null);
  };
  return (
    <>
      <SelectField
        id="save-offer-version"
        label="Offer to write"
        value={version ?? ''}
        onChange={(picked) => onVersion(picked === '' ? null : picked)}
      >
        <option value="">The offer as written (what every subscriber sees)</option>
        {names.map((each) => (
          <option key={each} value={each}>
            Variant {each} (for a save offer test)
          </option>
        ))}
      </SelectField>
      <NewVariantField
        id="save-offer-new-variant"
        label="Name a new offer variant"
        placeholder="half_price"
        button="Add offer variant"
        create={create}
      >
        {version !== null ? (
          <button type="button" className="button button--small" onClick={() => remove(version)}>
            Remove offer variant {version}
          </button>
        ) : null}
      </NewVariantField>
    </>
  );
}
