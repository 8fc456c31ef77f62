import { ACK_COOKIE, acknowledgedIds } from '../../shared/analytics/acknowledgement';

/** The acknowledgement cookie's value in a `document.cookie` string, else null. */
function ackValue(cookies: string): string | null {
  for (const pair of cookies.split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === ACK_COOKIE) return value ?? null;
  }
  return null;
}

/**
 * The batches the collector acknowledged (its answers' `gf_ack` cookie), taken out of the cookie
 * so that it stays small on the requests that follow; null when the browser keeps no cookies.
 * Only the ids read are taken out: one a beacon's answer added meanwhile stays for the next look.
 */
export function takeAcknowledgedBatches(
  doc: { cookie: string },
  cookieEnabled: boolean,
): string[] | null {
  if (!cookieEnabled) return null;
  const taken = acknowledgedIds(ackValue(doc.cookie));
  if (taken.length === 0) return taken;
  const left = acknowledgedIds(ackValue(doc.cookie)).filter((id) => !taken.includes(id));
  // The attributes the collector sets it with (worker/collector/batch-acknowledgement.ts).
  const life = left.length > 0 ? '' : '; Max-Age=0';
  doc.cookie = `${ACK_COOKIE}=${left.join('.')}; Path=/; SameSite=Strict; Secure${life}`;
  return taken;
}
