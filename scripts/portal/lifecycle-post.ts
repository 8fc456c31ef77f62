import { LIFECYCLE_PATH, LIFECYCLE_SIGNATURE_HEADER } from '../../shared/api/lifecycle';
import { signatureHeaderFor } from '../../worker/lifecycle/signature';

/**
 * POSTs a kept lifecycle event's body to the worker at `origin`, signed now with `key`, as the
 * product API sends it (`npm run portal -- renew …`, the data benchmark's renewals).
 */
export async function postLifecycleEvent(
  origin: string | URL,
  key: string,
  body: string,
): Promise<Response> {
  return fetch(new URL(LIFECYCLE_PATH, origin), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [LIFECYCLE_SIGNATURE_HEADER]: await signatureHeaderFor(
        key,
        Math.floor(Date.now() / 1000),
        body,
      ),
    },
    body,
  });
}
