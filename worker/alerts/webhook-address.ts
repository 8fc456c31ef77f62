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

/** Names that resolve only on a private network, by convention or reservation (RFC 6761, 6762, 8375). */
const PRIVATE_SUFFIXES = [
  '.localhost',
  '.local',
  '.internal',
  '.lan',
  '.home.arpa',
  '.intranet',
  '.corp',
];

/** IPv4 blocks that are not the public internet: this host, private, shared, link-local, reserved. */
const PRIVATE_V4: readonly [number, number][] = [
  [0x00000000, 8], // "this network"
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10, carrier-grade NAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // 169.254/16, link-local (cloud metadata services)
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24, protocol assignments
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15, benchmarking
  [0xe0000000, 3], // multicast and reserved, 224/3
];

function ipv4(host: string): number | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const bytes = parts.map(Number);
  if (bytes.some((byte) => byte > 255)) return null;
  return ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
}

function privateV4(address: number): boolean {
  return PRIVATE_V4.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return (address & mask) >>> 0 === base;
  });
}

/**
 * A bracketed IPv6 literal as the URL parser writes it (compressed, lower case): the unspecified
 * and loopback addresses, unique-local fc00::/7, link-local fe80::/10, and IPv4 mapped into IPv6
 * (::ffff:a.b.c.d, written ::ffff:7f00:1), judged by the IPv4 address inside.
 */
function privateV6(host: string): boolean {
  const address = host.slice(1, -1);
  if (address === '::' || address === '::1') return true;
  if (/^f[cd][0-9a-f]{0,2}:/.test(address) || /^fe[89ab][0-9a-f]?:/.test(address)) return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mapped) {
    const high = Number.parseInt(mapped[1]!, 16);
    const low = Number.parseInt(mapped[2]!, 16);
    return privateV4(((high << 16) | low) >>> 0);
  }
  return false;
}

function privateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (LOOPBACK_NAMES.has(host) || (!host.includes('.') && !host.startsWith('['))) return true;
  if (PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix))) return true;
  if (host.startsWith('[')) return privateV6(host);
  const v4 = ipv4(host);
  return v4 !== null && privateV4(v4);
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
