import type { ContentDocument } from '../../shared/config/content';

/**
 * A draft content a marketer previews in the console (worker/console/content-route.ts): the
 * console's route draws the screen by handing the app a request it made itself, with the draft
 * attached here. Only a request object the worker created can carry one, so nothing a browser
 * sends (header, cookie, query) can make a public page show a draft.
 */
const drafts = new WeakMap<Request, ContentDocument>();

/** `request`, which the worker made, drawn with `content` in place of the live content. */
export function withDraftContent(request: Request, content: ContentDocument): Request {
  drafts.set(request, content);
  return request;
}

/** The draft content attached to `request`, if the worker attached one. */
export function draftContentOf(request: Request): ContentDocument | undefined {
  return drafts.get(request);
}
