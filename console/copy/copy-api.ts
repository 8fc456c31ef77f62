import type { CopyDocument } from '../../shared/config/copy';
import {
  CONSOLE_COPY_API,
  type CopyCheckAnswer,
  type CopyPreviewAnswer,
  type CopyPublishAnswer,
  type CopyPublishRequest,
  type CopyRollbackRequest,
  type CopyState,
  type CopyVersionSummary,
  type CopyVersionsAnswer,
} from '../../shared/console-api/copy';
import { consoleCall } from '../kit/api';

/**
 * The Copy area's calls to `/console/api/copy/*` (shared/console-api/copy.ts), answered as the
 * config's calls are (console/kit/api.ts): the worker checks what it is sent, so only which answer
 * it is gets decided here.
 */

const call = <T>(
  url: string,
  body?: CopyPublishRequest | CopyRollbackRequest | { copy: CopyDocument },
) => consoleCall<T, CopyVersionSummary>(url, body);

export const fetchCopy = () => call<CopyState>(CONSOLE_COPY_API.state);
export const fetchCopyVersions = () => call<CopyVersionsAnswer>(CONSOLE_COPY_API.versions);
export const checkCopy = (request: CopyPublishRequest) =>
  call<CopyCheckAnswer>(CONSOLE_COPY_API.check, request);
export const publishCopy = (request: CopyPublishRequest) =>
  call<CopyPublishAnswer>(CONSOLE_COPY_API.publish, request);
export const rollBackCopy = (request: CopyRollbackRequest) =>
  call<CopyPublishAnswer>(CONSOLE_COPY_API.rollback, request);
export const previewCopy = (copy: CopyDocument) =>
  call<CopyPreviewAnswer>(CONSOLE_COPY_API.preview, { copy });
