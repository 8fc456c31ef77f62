/** The key of requests that carry no client address (only outside Cloudflare's edge). */
const UNKNOWN_ADDRESS = 'unknown';

/**
 * The client address as the rate limits count it: IPv4 as is, IPv6 by its /64. An IPv6 client is
 * handed a whole /64 by its provider and can take a fresh address from it for every request, so
 * counting single IPv6 addresses would count nothing.
 */
export function addressSubject(connectingIp: string | undefined): string {
  const ip = connectingIp?.trim().toLowerCase();
  if (!ip) return UNKNOWN_ADDRESS;
  if (!ip.includes(':')) return ip;
  const mapped = ip.match(/^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/);
  if (mapped?.[1]) return mapped[1];
  const [head = '', tail] = ip.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array.from(
    { length: Math.max(0, 8 - headGroups.length - tailGroups.length) },
    () => '0',
  );
  const groups = tail === undefined ? headGroups : [...headGroups, ...zeros, ...tailGroups];
  const network = groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, ''));
  return `${network.join(':')}::/64`;
}
