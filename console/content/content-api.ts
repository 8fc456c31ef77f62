import type { ContentDocument } from '../../shared/config/content';
import {
  CONSOLE_CONTENT_API,
  type ContentCatalogue,
  type ContentLanguagesAnswer,
  type ContentPreviewAnswer,
  type ContentPreviewRequest,
  type SaveOfferPreviewAnswer,
  type SaveOfferPreviewRequest,
} from '../../shared/console-api/content';
import {
  CONSOLE_PICTURES_PATH,
  PICTURE_UPLOAD_TYPE,
  type PictureDeleteAnswer,
  type PictureLibraryAnswer,
  type PictureUploadAnswer,
} from '../../shared/console-api/pictures';
import { consoleCall } from '../kit/api';

/**
 * The content editor's calls (shared/console-api/content.ts), answered as the config's calls are
 * (console/kit/api.ts). Publishing the content is the config's publish: it is a section of it.
 */

export const fetchContentCatalogue = () =>
  consoleCall<ContentCatalogue>(CONSOLE_CONTENT_API.catalogue);

export const fetchContentPreview = (request: ContentPreviewRequest) =>
  consoleCall<ContentPreviewAnswer>(CONSOLE_CONTENT_API.preview, request);

/** The subscriber's cancel confirm with a draft's save offer, drawn by the worker. */
export const fetchSaveOfferPreview = (request: SaveOfferPreviewRequest) =>
  consoleCall<SaveOfferPreviewAnswer>(CONSOLE_CONTENT_API.saveOfferPreview, request);

/** What visitors in each other language see of the draft content's English changes. */
export const fetchContentLanguages = (content: ContentDocument) =>
  consoleCall<ContentLanguagesAnswer>(CONSOLE_CONTENT_API.languages, { content });

export const fetchPictureLibrary = () => consoleCall<PictureLibraryAnswer>(CONSOLE_PICTURES_PATH);

/** What the library answered: its value, or its own words of why not, said to the marketer. */
type LibraryAnswer<T> = { ok: true; value: T } | { ok: false; message: string };

async function libraryCall<T extends { ok: true }>(
  url: string,
  init: RequestInit,
  unreached: string,
): Promise<LibraryAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    return { ok: false, message: unreached };
  }
  const answer = (await response.json().catch(() => null)) as
    | T
    | { ok: false; message?: string }
    | null;
  if (response.ok && answer?.ok) return { ok: true, value: answer as T };
  const said = answer && !answer.ok ? answer.message : undefined;
  return { ok: false, message: said ?? `The library refused it (${response.status}).` };
}

/** Uploads a file's bytes to the picture library (its type, size or sides may be refused). */
export const uploadPicture = (file: Blob) =>
  libraryCall<PictureUploadAnswer>(
    CONSOLE_PICTURES_PATH,
    {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': PICTURE_UPLOAD_TYPE },
      body: file,
    },
    'The upload did not reach the worker: check the connection.',
  );

/**
 * Deletes a picture from the library, unless the live content or `draft` (the console's draft
 * content, which only this browser holds) shows it: then the answer says where.
 */
export const deleteLibraryPicture = (id: string, draft: ContentDocument | null) =>
  libraryCall<PictureDeleteAnswer>(
    `${CONSOLE_PICTURES_PATH}/${id}`,
    {
      method: 'DELETE',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ draft }),
    },
    'The delete did not reach the worker: check the connection.',
  );
