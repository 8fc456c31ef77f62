import {
  CONSOLE_CONTENT_API,
  type ContentCatalogue,
  type ContentPreviewAnswer,
  type ContentPreviewRequest,
} from '../../shared/console-api/content';
import {
  CONSOLE_PICTURES_PATH,
  PICTURE_UPLOAD_TYPE,
  type PictureLibraryAnswer,
  type PictureUploadAnswer,
} from '../../shared/console-api/pictures';
import { consoleCall } from '../api';

/**
 * The content editor's calls (shared/console-api/content.ts), answered as the config's calls are
 * (console/api.ts). Publishing the content is the config's publish: it is a section of it.
 */

export const fetchContentCatalogue = () =>
  consoleCall<ContentCatalogue>(CONSOLE_CONTENT_API.catalogue);

export const fetchContentPreview = (request: ContentPreviewRequest) =>
  consoleCall<ContentPreviewAnswer>(CONSOLE_CONTENT_API.preview, request);

export const fetchPictureLibrary = () => consoleCall<PictureLibraryAnswer>(CONSOLE_PICTURES_PATH);

/**
 * Uploads a file's bytes to the picture library; the answer, or the library's own words of why
 * not (its type, size or sides, said to the marketer as they are).
 */
export async function uploadPicture(
  file: Blob,
): Promise<{ ok: true; value: PictureUploadAnswer } | { ok: false; message: string }> {
  let response: Response;
  try {
    response = await fetch(CONSOLE_PICTURES_PATH, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': PICTURE_UPLOAD_TYPE },
      body: file,
    });
  } catch {
    return { ok: false, message: 'The upload did not reach the worker: check the connection.' };
  }
  const answer = (await response.json().catch(() => null)) as
    | PictureUploadAnswer
    | { ok: false; message?: string }
    | null;
  if (response.ok && answer?.ok) return { ok: true, value: answer };
  const said = answer && !answer.ok ? answer.message : undefined;
  return { ok: false, message: said ?? `The upload was refused (${response.status}).` };
}
