import type { ContentDocument } from '../../shared/config/content';

/**
 * A draft content a marketer previews in the console (worker/console/content-route.ts): the
 * console's route draws the screen by handing the app a request it made itself, with the draft
 * attached here, and the visitor's country the preview shows, if it names one. Only a request
 * object the worker created can carry them, so nothing a browser sends (header, cookie, query)
 * can make a public page show a draft or pick its country.
 */
interface DraftView {
  content: ContentDocument;
  country: string | null;
}

const drafts = new WeakMap<Request, DraftView>();

/** `request`, which the worker made, drawn with `content` in place of the live content. */
export function withDraftContent(
  request: Request,
  content: ContentDocument,
  country: string | null = null,
): Request {
  drafts.set(request, { content, country });
  return request;
}

/** The draft content attached to `request`, if the worker attached one. */
export function draftContentOf(request: Request): ContentDocument | undefined {
  return drafts.get(request)?.content;
}

/** The country a draft's preview is drawn for (worker/middleware/country.ts), else null. */
export function draftCountryOf(request: Request): string | null {
  return drafts.get(request)?.country ?? null;
}
