import {
  CONSOLE_CONTENT_API,
  type ContentCatalogue,
  type ContentPreviewAnswer,
  type ContentPreviewRequest,
} from '../../shared/console-api/content';
import { consoleCall } from '../api';

/**
 * The content editor's calls (shared/console-api/content.ts), answered as the config's calls are
 * (console/api.ts). Publishing the content is the config's publish: it is a section of it.
 */

export const fetchContentCatalogue = () =>
  consoleCall<ContentCatalogue>(CONSOLE_CONTENT_API.catalogue);

export const fetchContentPreview = (request: ContentPreviewRequest) =>
  consoleCall<ContentPreviewAnswer>(CONSOLE_CONTENT_API.preview, request);
