import ipaddr from 'ipaddr.js';

/**
 * Which addresses the alerts may be posted to: the experiments' validator refuses the others
 * when a marketer saves one (worker/experiments/config/validate.ts), and the delivery checks
 * again before each post, since KV can be written around the validator. The worker posts from
 * inside Cloudflare with a signature of ours, so an address on a private network or the
 * worker's own host (server-side request forgery) is refused in production; so is plain http,
 * which would show the alerts to anyone on the path. In development (`npm start`) a listener on
 * this machine may take them over http.
 */

export interface WebhookRules {
  /** Only `npm start` and the tests: ENVIRONMENT exactly 'development' (worker/env.ts). */
  development: boolean;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Names that resolve only on a private network, by convention or reservation (RFC 6761, 6762,
 * 8375).
 */
const PRIVATE_SUFFIXES = [
  '.localhost',
  '.local',
  '.internal',
  '.lan',
  '.home.arpa',
  '.intranet',
  '.corp',
];

/**
 * IP literals are judged with ipaddr.js's named ranges (its `range()`): only an address outside
 * every special range ('unicast') is the public internet. Refused by name there: this network,
 * private, carrier-grade NAT, loopback, link-local, the documentation and benchmarking blocks,
 * reserved 240/4, multicast, broadcast; for IPv6 also unique-local, site-local, link-local,
 * multicast, discard, documentation (2001:db8::/32, 3fff::/20), Teredo, ORCHID and the rest.
 * The URL parser has already written odd IPv4 spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`)
 * as four decimals and compressed IPv6, so each address has one spelling here.
 */
function publicV4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

/** IPv6 prefixes that carry an IPv4 address in their last 32 bits, judged by that address. */
const V4_IN_LAST_32_BITS: readonly [ipaddr.IPv6, number][] = [
  ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), // mapped, ::ffff:a.b.c.d
  ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), // translated (RFC 6145)
  ipaddr.IPv6.parseCIDR('64:ff9b::/96'), // NAT64 well-known prefix (RFC 6052)
];

/** Local-use NAT64 (RFC 8215): the translator is someone's own network. */
const LOCAL_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');
/** 6to4 (RFC 3056): the IPv4 address sits in bits 16 to 47. */
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
/**
 * The only IPv6 block assigned as global unicast. Outside it: ::1, ::, the deprecated
 * IPv4-compatible ::a.b.c.d, discard 100::/64, unique-local, link-local, site-local, multicast.
 */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

function v4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function publicV6(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  if (address.match(LOCAL_NAT64)) return false;
  if (V4_IN_LAST_32_BITS.some((prefix) => address.match(prefix))) {
    return publicV4(v4Of(parts[6]!, parts[7]!));
  }
  if (address.match(SIX_TO_FOUR)) return publicV4(v4Of(parts[1]!, parts[2]!));
  return address.match(GLOBAL_UNICAST) && address.range() === 'unicast';
}

/** Whether an IP literal host is on the public internet; null when the host is a name. */
function publicAddress(host: string): boolean | null {
  if (host.startsWith('[') && host.endsWith(']')) {
    const inside = host.slice(1, -1);
    return ipaddr.IPv6.isValid(inside) ? publicV6(ipaddr.IPv6.parse(inside)) : false;
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return publicV4(ipaddr.IPv4.parse(host));
  return null;
}

function privateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const literal = publicAddress(host);
  if (literal !== null) return !literal;
  if (LOOPBACK_NAMES.has(host) || !host.includes('.')) return true;
  return PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/** Why `address` may not take the alerts, in words for the marketer; null when it may. */
export function webhookAddressProblem(address: string, rules: WebhookRules): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'is not a web address: paste the webhook address your chat tool gives (https://…)';
  }
  if (url.username !== '' || url.password !== '')
    return 'must not carry a user name or password: use the address the tool gives';
  const loopback = LOOPBACK_NAMES.has(url.hostname);
  if (url.protocol === 'http:' && rules.development && loopback) return null;
  if (url.protocol !== 'https:') return 'must be an https:// address';
  if (rules.development) return null;
  if (privateHost(url.hostname))
    return `"${url.hostname}" is not a public host: alerts go only to an address on the internet (a Slack or Teams webhook)`;
  return null;
}
