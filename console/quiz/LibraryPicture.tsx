import { useEffect } from 'react';
import { pictureName } from '../content/content-picture';
import { $pictureLibrary, loadPictureLibrary } from '../content/stores/content-editor';
import { FieldMessages } from '../kit/FieldMessages';
import { useStore } from '../kit/stores/atom';

/**
 * A question's picture picked from the library (uploaded on the Content page), by its size and
 * upload day: a picture choice's (its label names the choice, so it takes no alt text) or an
 * information screen's (described beside it, InfoPicture). The question's page loads the library
 * as it opens; a picker shown alone loads it once.
 */
export function LibraryPicture(props: {
  /** The control's id, and what it is called. */
  id: string;
  label: string;
  path: string;
  chosen: string | undefined;
  onChange: (picture: { id: string; width: number; height: number } | null) => void;
}) {
  const library = useStore($pictureLibrary);
  useEffect(() => {
    if ($pictureLibrary.get().kind !== 'ready') void loadPictureLibrary();
  }, []);
  const pictures = library.kind === 'ready' ? library.pictures : [];
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.chosen ?? ''}
        onChange={(event) =>
          props.onChange(pictures.find((picture) => picture.id === event.target.value) ?? null)
        }
      >
        <option value="">{pictures.length === 0 ? 'No picture in the library yet' : 'None'}</option>
        {pictures.map((picture) => (
          <option key={picture.id} value={picture.id}>
            {pictureName(picture)}
          </option>
        ))}
      </select>
      <FieldMessages path={props.path} />
    </div>
  );
}
