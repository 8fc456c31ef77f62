import { useEffect, useState } from 'react';
import type { ContentPicture } from '../../shared/config/content';
import type { ContentCatalogue } from '../../shared/console-api/content';
import type { FieldError } from '../../shared/console-api/errors';
import type { PictureRecord } from '../../shared/console-api/pictures';
import { languageName } from '../kit/content-text';
import { Dialog } from '../kit/Dialog';
import { useStore } from '../kit/stores/atom';
import { CheckedField } from './CheckedField';
import { pictureName } from './content-picture';
import {
  $pictureLibrary,
  addPicture,
  choosePicture,
  loadPictureLibrary,
  removePicture,
  setPictureAlt,
} from './stores/content-editor';

/**
 * The `picture` section's picture: chosen from the library or uploaded here, and described in
 * every shipped language (its alt text, which a publish requires). The library is a group of
 * radio buttons, each named by its size and upload, so it is chosen by keyboard as by mouse.
 */
export function PictureFields(props: {
  catalogue: ContentCatalogue;
  picture: ContentPicture | undefined;
  issues: readonly FieldError[];
}) {
  const library = useStore($pictureLibrary);
  useEffect(() => {
    void loadPictureLibrary();
  }, []);
  const { picture } = props;
  return (
    <fieldset className="content-copy content-picture">
      <legend>Picture</legend>
      <div className="field">
        <label htmlFor="content-picture-upload">
          Upload a picture (JPEG, PNG, WebP, AVIF or GIF)
        </label>
        <input
          id="content-picture-upload"
          type="file"
          accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void addPicture(file);
            event.target.value = '';
          }}
        />
      </div>
      <p className="muted" role="status">
        {library.kind === 'ready' ? library.said : ''}
        {library.kind === 'failed' ? library.message : ''}
      </p>
      {library.kind === 'ready' && library.pictures.length > 0 ? (
        <PictureLibrary pictures={library.pictures} chosen={picture?.id} />
      ) : null}
      {picture ? <AltFields {...props} picture={picture} /> : null}
    </fieldset>
  );
}

/** The library: a picture chosen by its radio button, or deleted (after a confirmation). */
function PictureLibrary({ pictures, chosen }: { pictures: PictureRecord[]; chosen?: string }) {
  const [deleting, setDeleting] = useState<PictureRecord | null>(null);
  return (
    <>
      <div className="picture-library" role="radiogroup" aria-label="Picture library">
        {pictures.map((record) => (
          <div key={record.id} className="picture-library__item">
            <label className="picture-library__choice">
              <input
                type="radio"
                name="content-picture"
                checked={chosen === record.id}
                onChange={() => choosePicture(record)}
              />
              <img
                src={record.thumbnail}
                alt=""
                width={96}
                height={Math.round((96 * record.height) / record.width)}
              />
              <span>{pictureName(record)}</span>
            </label>
            <button
              type="button"
              id={`picture-delete-${record.id}`}
              className="button button--small button--quiet"
              aria-label={`Delete picture ${pictureName(record)}`}
              onClick={() => setDeleting(record)}
            >
              Delete
            </button>
          </div>
        ))}
      </div>
      {deleting ? <DeleteDialog record={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}

function DeleteDialog({ record, onClose }: { record: PictureRecord; onClose: () => void }) {
  return (
    <Dialog
      titleId="picture-delete-title"
      returnFocusId={`picture-delete-${record.id}`}
      onClose={onClose}
    >
      <h3 id="picture-delete-title">Delete picture {pictureName(record)}?</h3>
      <p>
        It leaves the library and our storage, with every size made of it: this cannot be undone. A
        picture the live content or this draft shows is not deleted.
      </p>
      <div className="confirm__actions">
        <button
          type="button"
          className="button button--danger"
          onClick={() => {
            onClose();
            // Deleted, its button goes: focus goes on to the upload, beside the library.
            void removePicture(record).then((deleted) => {
              if (deleted) document.getElementById('content-picture-upload')?.focus();
            });
          }}
        >
          Delete picture
        </button>
        <button type="button" className="button" onClick={onClose}>
          Keep it
        </button>
      </div>
    </Dialog>
  );
}

/** A description per shipped language, each beside what the check says of it. */
function AltFields({
  catalogue,
  picture,
  issues,
}: {
  catalogue: ContentCatalogue;
  picture: ContentPicture;
  issues: readonly FieldError[];
}) {
  return (
    <>
      <p className="muted">
        Describe what the picture shows in each language: a sentence for someone who cannot see it.
      </p>
      {catalogue.languages.map((language) => {
        const id = `content-picture-alt-${language}`;
        const problem = issues.find(
          (issue) =>
            issue.path.endsWith(`.picture.alt.${language}`) || issue.path.endsWith('.picture.alt'),
        );
        return (
          <CheckedField
            key={language}
            id={id}
            label={`Description in ${languageName(language)}`}
            problem={problem?.message}
            control={(aria) => (
              <input
                id={id}
                className="input"
                lang={language}
                dir={catalogue.rtl.includes(language) ? 'rtl' : 'ltr'}
                value={picture.alt[language] ?? ''}
                {...aria}
                onChange={(event) => setPictureAlt(language, event.target.value)}
              />
            )}
          />
        );
      })}
    </>
  );
}
