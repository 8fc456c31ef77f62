import { parse } from 'hono/utils/cookie';

/**
 * Every value a `Cookie` header gives one name, in the header's order. A browser can hold two
 * cookies of one name that differ in Domain or Path (a pixel's on the registrable domain, the
 * worker's host-only one), and sends both; hono's getCookie gives only the first, so a reader
 * that wants the first acceptable one needs them all. Values are read as getCookie reads them:
 * trimmed, unquoted, percent-decoded where that decodes.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined || !header.includes(name)) return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at === -1 || pair.slice(0, at).trim() !== name) continue;
    values.push(decoded(unquoted(pair.slice(at + 1).trim())));
  }
  return values;
}

/**
 * The value a `Cookie` header gives `name`, read as hono's getCookie reads it (the first one),
 * for a helper that takes the header rather than the request's context.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  return header ? parse(header, name)[name] : undefined;
}

function unquoted(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

function decoded(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
