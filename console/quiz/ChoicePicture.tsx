import { useEffect } from 'react';
import { pictureName } from '../content/content-picture';
import { $pictureLibrary, loadPictureLibrary } from '../content/stores/content-editor';
import { FieldMessages } from '../kit/FieldMessages';
import { useStore } from '../kit/stores/atom';

/**
 * A picture choice's picture, picked from the library (uploaded on the Content page), by its
 * size and upload day. Its label names the choice, so it takes no alt text of its own.
 */
export function ChoicePicture(props: {
  path: string;
  index: number;
  chosen: string | undefined;
  onChange: (picture: { id: string; width: number; height: number } | null) => void;
}) {
  const library = useStore($pictureLibrary);
  useEffect(() => {
    if ($pictureLibrary.get().kind !== 'ready') void loadPictureLibrary();
  }, []);
  const pictures = library.kind === 'ready' ? library.pictures : [];
  const id = `quiz-choice-picture-${props.index}`;
  return (
    <div className="field">
      <label htmlFor={id}>Choice {props.index + 1}’s picture</label>
      <select
        id={id}
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
