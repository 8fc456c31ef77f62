import type { CollectedEvent } from '../../shared/analytics/batch';
import { type RevenueType, verifiedRevenue } from './consumer/revenue';
import type { QueuedEvent } from './queued-event';
import { splitUserData, type UserData } from './user-data';

/**
 * One line of the event archive (archive-layout.ts; docs/analytics.md, "The event archive"): a
 * schema a warehouse can declare once and read every object with, whatever properties a day's
 * events carry. Every field is on every line (null when unknown), times are ISO 8601 in UTC with
 * milliseconds, ids are strings, and `v` names the shape, so a later change is visible.
 *
 * Lines written before `v` existed (version 1, no `v` field) had epoch-ms numbers for `time`,
 * `received_at` and `session_id`, `source` and the user_data fields among the properties, and
 * `received_at` again inside `context`; readLine upgrades them.
 */
export const ARCHIVE_LINE_VERSION = 2;

type Properties = CollectedEvent['event_properties'];

/** What only the server knew about the request (queued-event.ts ServerContext), every key set. */
export interface ArchiveContext {
  ip: string | null;
  user_agent: string | null;
  country: string | null;
  page_url: string | null;
  consent: 'not_required' | 'pending' | 'granted' | 'denied';
  visitor_id: string | null;
  buyer_email_sha256: string | null;
  ad_cookies: { fbc: string | null; fbp: string | null; ttp: string | null; ttclid: string | null };
}

export interface ArchiveLine {
  v: typeof ARCHIVE_LINE_VERSION;
  /** De-duplication key: a reader takes each insert_id once (the archive is at-least-once). */
  insert_id: string;
  event_type: string;
  /** Who vouches for it: 'server' only for a purchase the worker saw the product API answer. */
  source: 'browser' | 'server';
  /** When it happened, on the visitor's clock (a server event: the worker's). */
  time: string;
  /** When the collector took it, on the collector's clock; the partition is its UTC hour. */
  received_at: string;
  /** The visitor uuid (the request's, event-identity.ts). */
  device_id: string;
  user_id: string | null;
  /** The browser session (its start, epoch ms, as decimal digits); null outside one. */
  session_id: string | null;
  /** SPEC.md §3: the screen id, or the path without its leading slash. */
  screen_name: string | null;
  /** The event's own properties: no `source` and no user_data field (those have their own). */
  event_properties: Properties;
  /** SPEC.md §3's user_data object, every field present. */
  user_data: UserData;
  /**
   * A server-verified purchase's price, or a later payment's signed amount (a refund negative;
   * consumer/revenue.ts); null on every other event.
   */
  revenue: number | null;
  currency: string | null;
  revenue_type: RevenueType | null;
  product_id: string | null;
  context: ArchiveContext;
}

function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** The tracker's session id is its start in epoch ms; 0 (a server event) means no session. */
function sessionIdText(sessionId: number): string | null {
  return sessionId > 0 ? String(sessionId) : null;
}

/** A line's revenue columns: a server-verified purchase's, else all null. */
function revenueColumns(
  revenue: ReturnType<typeof verifiedRevenue>,
): Pick<ArchiveLine, 'revenue' | 'currency' | 'revenue_type' | 'product_id'> {
  return {
    revenue: revenue?.price ?? null,
    currency: revenue?.currency ?? null,
    revenue_type: revenue?.revenueType ?? null,
    product_id: revenue?.productId ?? null,
  };
}

/** The archive's line for one queued event. */
export function archiveLine(message: QueuedEvent): ArchiveLine {
  const { event, context, source } = message;
  const { source: _claimed, ...own } = event.event_properties;
  // Who vouches for it is the message's word: a browser's own `source` property never survives.
  const { properties, userData } = splitUserData(own, event.device_id);
  const screen = event.event_properties.screen_name;
  return {
    v: ARCHIVE_LINE_VERSION,
    insert_id: event.insert_id,
    event_type: event.event_type,
    source,
    time: isoTime(event.time),
    received_at: isoTime(context.received_at),
    device_id: event.device_id,
    user_id: event.user_id,
    session_id: source === 'server' ? null : sessionIdText(event.session_id),
    screen_name: typeof screen === 'string' ? screen : null,
    event_properties: properties,
    user_data: userData,
    ...revenueColumns(verifiedRevenue(message)),
    context: {
      ip: context.ip,
      user_agent: context.user_agent,
      country: context.country,
      page_url: context.page_url,
      consent: context.consent,
      visitor_id: context.visitor_id ?? null,
      buyer_email_sha256: context.buyer_email_sha256 ?? null,
      ad_cookies: context.ad_cookies,
    },
  };
}

/** A version-1 line as it was written (event-record.ts before the archive had its own shape). */
interface LineV1 {
  insert_id: string;
  event_type: string;
  time: number;
  received_at: number;
  device_id: string;
  user_id: string | null;
  session_id: number;
  screen_name: string | null;
  event_properties: Properties;
  context: Partial<ArchiveContext> & { ad_cookies?: Partial<ArchiveContext['ad_cookies']> };
}

function upgradeV1(line: LineV1): ArchiveLine {
  const { source, ...own } = line.event_properties;
  const { properties, userData } = splitUserData(own, line.device_id);
  const context = line.context ?? {};
  const cookies: Partial<ArchiveContext['ad_cookies']> = context.ad_cookies ?? {};
  const server = source === 'server';
  return {
    v: ARCHIVE_LINE_VERSION,
    insert_id: String(line.insert_id),
    event_type: line.event_type,
    source: server ? 'server' : 'browser',
    time: isoTime(line.time),
    received_at: isoTime(line.received_at),
    device_id: String(line.device_id),
    user_id: line.user_id === null ? null : String(line.user_id),
    session_id: server ? null : sessionIdText(line.session_id),
    screen_name: line.screen_name,
    event_properties: properties,
    user_data: userData,
    // Version 1 kept no revenue fields: a server purchase's are read from its properties.
    ...revenueColumns(verifiedRevenue({ source: server ? 'server' : 'browser', event: line })),
    context: {
      ip: context.ip ?? null,
      user_agent: context.user_agent ?? null,
      country: context.country ?? null,
      page_url: context.page_url ?? null,
      consent: context.consent ?? 'not_required',
      visitor_id: context.visitor_id ?? null,
      buyer_email_sha256: context.buyer_email_sha256 ?? null,
      ad_cookies: {
        fbc: cookies.fbc ?? null,
        fbp: cookies.fbp ?? null,
        ttp: cookies.ttp ?? null,
        ttclid: cookies.ttclid ?? null,
      },
    },
  };
}

/** A parsed line of any version, in this version's shape; throws on a version it does not know. */
export function readLine(value: unknown): ArchiveLine {
  if (typeof value !== 'object' || value === null) throw new Error('not an archive line');
  const { v } = value as { v?: unknown };
  if (v === ARCHIVE_LINE_VERSION) return value as ArchiveLine;
  if (v === undefined) return upgradeV1(value as LineV1);
  throw new Error(`archive line version ${String(v)} is newer than this reader`);
}
