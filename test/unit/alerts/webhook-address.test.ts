import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { webhookAddressProblem } from '../../../worker/http/webhook-address';

/** Which addresses may take the alerts (worker/http/webhook-address.ts). */

const production = { development: false };
const development = { development: true };

describe('in production', () => {
  it.each([
    'https://hooks.slack.com/services/T000/B000/XXXX',
    'https://example.webhook.office.com/webhookb2/abc',
    'https://relay.example.com:8443/alerts?team=growth',
    'https://8.8.8.8/hook',
  ])('takes %s', (address) => {
    expect(webhookAddressProblem(address, production)).toBeNull();
  });

  it.each([
    ['http://hooks.slack.com/services/T000', 'must be an https:// address'],
    ['ftp://hooks.example.com/x', 'must be an https:// address'],
    ['http://localhost:9000/hook', 'must be an https:// address'],
    ['not a url', 'is not a web address'],
    ['https://user:secret@hooks.example.com/x', 'must not carry a user name or password'],
  ])('refuses %s', (address, problem) => {
    expect(webhookAddressProblem(address, production)).toContain(problem);
  });

  it.each([
    'https://localhost/hook',
    'https://api.localhost/hook',
    'https://127.0.0.1/hook',
    'https://127.1.2.3/hook',
    'https://0x7f.1/hook',
    'https://2130706433/hook',
    'https://10.0.0.5/hook',
    'https://172.16.0.1/hook',
    'https://172.31.255.255/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://0.0.0.0/hook',
    'https://[::1]/hook',
    'https://[::]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:10.1.2.3]/hook',
    'https://printer.local/hook',
    'https://metadata.google.internal/hook',
    'https://router.home.arpa/hook',
    'https://intranet/hook',
    'https://LOCALHOST./hook',
  ])('refuses the private or loopback host of %s', (address) => {
    expect(webhookAddressProblem(address, production)).toMatch(/is not a public host/);
  });

  it.each([
    'https://172.32.0.1/hook',
    'https://192.169.0.1/hook',
    'https://[2606:4700::1111]/hook',
  ])('takes the public neighbour %s', (address) => {
    expect(webhookAddressProblem(address, production)).toBeNull();
  });
});

describe('in development', () => {
  it.each(['http://localhost:9000/hook', 'http://127.0.0.1:9000/hook', 'http://[::1]:9000/hook'])(
    'takes a listener on this machine over http: %s',
    (address) => {
      expect(webhookAddressProblem(address, development)).toBeNull();
    },
  );

  it('still refuses http to another host', () => {
    expect(webhookAddressProblem('http://hooks.example.com/x', development)).toBe(
      'must be an https:// address',
    );
  });
});

/** Every literal form of an address that is not the public internet, each refused in production. */
describe('IP literals in every spelling (production)', () => {
  it.each([
    // IPv4: loopback, private, link-local, shared, this network, reserved, documentation...
    'https://127.0.0.1/',
    'https://127.255.255.254/',
    'https://10.255.0.1/',
    'https://172.20.1.1/',
    'https://192.168.0.10/',
    'https://169.254.169.254/',
    'https://100.64.0.1/',
    'https://100.127.255.255/',
    'https://0.0.0.0/',
    'https://0.1.2.3/',
    'https://192.0.0.8/',
    'https://192.0.2.1/',
    'https://198.51.100.7/',
    'https://203.0.113.9/',
    'https://198.18.0.1/',
    'https://198.19.255.255/',
    'https://240.0.0.1/',
    'https://254.1.2.3/',
    'https://255.255.255.255/',
    'https://224.0.0.1/',
    'https://239.255.255.250/',
    // ...in the spellings a URL parser turns into those.
    'https://2130706433/',
    'https://0x7f.1/',
    'https://0x7f000001/',
    'https://0177.0.0.1/',
    'https://017700000001/',
    'https://127.1/',
    'https://0x0a.0.0.1/',
    'https://3232235777/',
    'https://0xA9.0xFE.0xA9.0xFE/',
    'https://127.0.0.1./',
    // IPv6: loopback, unspecified, unique-local, link-local, site-local, multicast, documentation.
    'https://[::1]/',
    'https://[0:0:0:0:0:0:0:1]/',
    'https://[::]/',
    'https://[fc00::1]/',
    'https://[fd12:3456:789a::1]/',
    'https://[fe80::1]/',
    'https://[febf:ffff::1]/',
    'https://[fec0::1]/',
    'https://[feff::1]/',
    'https://[ff02::1]/',
    'https://[2001:db8::1]/',
    'https://[2001:0DB8:0000::0001]/',
    'https://[3fff::1]/',
    'https://[100::1]/',
    // IPv4 inside IPv6: mapped, compatible, translated, NAT64, 6to4; Teredo and local NAT64.
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[0:0:0:0:0:ffff:7f00:0001]/',
    'https://[::ffff:10.1.2.3]/',
    'https://[::ffff:169.254.169.254]/',
    'https://[::127.0.0.1]/',
    'https://[::10.0.0.1]/',
    'https://[::ffff:0:192.168.1.1]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://[64:ff9b:1::808:808]/',
    'https://[2002:7f00:1::1]/',
    'https://[2002:c0a8:101::]/',
    'https://[2002:a00:1:1::1]/',
    'https://[2001::1]/',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  ])('refuses %s', (address) => {
    expect(webhookAddressProblem(address, production)).toMatch(/is not a public host/);
  });

  it.each([
    'https://8.8.8.8/',
    'https://1.1.1.1/',
    'https://100.128.0.1/',
    'https://100.63.255.255/',
    'https://172.15.255.255/',
    'https://192.0.3.1/',
    'https://198.17.255.255/',
    'https://198.20.0.1/',
    'https://203.0.114.1/',
    'https://223.255.255.254/',
    'https://134744072/',
    'https://[2606:4700:4700::1111]/',
    'https://[2a00:1450:4001:82b::200e]/',
    'https://[::ffff:8.8.8.8]/',
    'https://[64:ff9b::8.8.8.8]/',
    'https://[2002:808:808::1]/',
  ])('takes the public %s', (address) => {
    expect(webhookAddressProblem(address, production)).toBeNull();
  });

  it('hostnames that are names keep their rules', () => {
    expect(webhookAddressProblem('https://10.0.0.1.nip.io/hook', production)).toBeNull();
    expect(webhookAddressProblem('https://db.internal/hook', production)).toMatch(/not a public/);
  });

  it('development still takes a local receiver, and any https address', () => {
    for (const address of [
      'http://127.0.0.1:8788/hook',
      'http://[::1]:8788/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://10.0.0.1/hook',
    ]) {
      expect(webhookAddressProblem(address, development)).toBeNull();
    }
    expect(webhookAddressProblem('http://10.0.0.1/hook', development)).toBe(
      'must be an https:// address',
    );
  });
});

/** An IPv4 address as 32 bits, and the spellings a URL parser reads as it. */
const v4Spellings = (n: number): string[] => {
  const bytes = [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const hex16 = (value: number) => value.toString(16);
  const high = (n >>> 16) & 0xffff;
  const low = n & 0xffff;
  const dotted = bytes.join('.');
  return [
    dotted,
    String(n >>> 0),
    `0x${(n >>> 0).toString(16)}`,
    bytes.map((byte) => `0x${byte.toString(16)}`).join('.'),
    bytes.map((byte) => `0${byte.toString(8)}`).join('.'),
    `${bytes[0]}.${(n >>> 0) & 0xffffff}`,
    `[::ffff:${dotted}]`,
    `[::ffff:${hex16(high)}:${hex16(low)}]`,
    `[0:0:0:0:0:FFFF:${hex16(high).toUpperCase()}:${hex16(low)}]`,
    `[::ffff:0:${dotted}]`,
    `[64:ff9b::${dotted}]`,
    `[2002:${hex16(high)}:${hex16(low)}::1]`,
  ];
};

/** A random address inside `base/bits` (IPv4, as 32 bits). */
const insideV4 = (cidr: string) => {
  const [base, bits] = cidr.split('/') as [string, string];
  const start = base.split('.').reduce((sum, byte) => sum * 256 + Number(byte), 0);
  const size = 2 ** (32 - Number(bits));
  return fc.integer({ min: 0, max: size - 1 }).map((offset) => start + offset);
};

const REFUSED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
];

/** Blocks of the public internet (regional registries' unicast space, no special range inside). */
const PUBLIC_V4 = ['1.0.0.0/8', '8.0.0.0/8', '45.0.0.0/8', '104.16.0.0/12', '185.0.0.0/8'];

/** A random IPv6 address inside `prefix/bits`, as eight groups. */
const insideV6 = (prefix: number[], bits: number) =>
  fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }).map((random) =>
    random.map((group, index) => {
      const kept = Math.max(0, Math.min(16, bits - index * 16));
      const mask = kept === 0 ? 0 : (0xffff << (16 - kept)) & 0xffff;
      return ((prefix[index] ?? 0) & mask) | (group & ~mask & 0xffff);
    }),
  );

/** Spellings of eight groups: full with zeros, full lower and upper, and the shortest. */
const v6Spellings = (groups: number[]): string[] => {
  const hex = groups.map((group) => group.toString(16));
  return [
    `[${groups.map((group) => group.toString(16).padStart(4, '0')).join(':')}]`,
    `[${hex.join(':')}]`,
    `[${hex.join(':').toUpperCase()}]`,
    new URL(`https://[${hex.join(':')}]/`).hostname,
  ];
};

const REFUSED_V6: [string, number[], number][] = [
  ['fc00::/7', [0xfc00], 7],
  ['fe80::/10', [0xfe80], 10],
  ['fec0::/10', [0xfec0], 10],
  ['ff00::/8', [0xff00], 8],
  ['2001:db8::/32', [0x2001, 0xdb8], 32],
  ['2001::/32 (Teredo)', [0x2001, 0], 32],
  ['64:ff9b:1::/48', [0x64, 0xff9b, 1], 48],
  ['::/96 (IPv4-compatible, deprecated: refused whatever it holds)', [0, 0, 0, 0, 0, 0], 96],
];

const PUBLIC_V6: [number[], number][] = [
  [[0x2a00], 12],
  [[0x2400], 12],
  [[0x2c00], 12],
];

describe('properties: random addresses in each refused range, in each spelling', () => {
  const refused = (host: string) =>
    expect(webhookAddressProblem(`https://${host}/hook`, production), host).toMatch(
      /is not a public host/,
    );
  const taken = (host: string) =>
    expect(webhookAddressProblem(`https://${host}/hook`, production), host).toBeNull();

  it.each(REFUSED_V4)('IPv4 %s is refused however it is written', (cidr) => {
    fc.assert(
      fc.property(insideV4(cidr), (n) => {
        for (const host of v4Spellings(n)) refused(host);
      }),
      { numRuns: 50 },
    );
  });

  it.each(REFUSED_V6)('IPv6 %s is refused however it is written', (_, prefix, bits) => {
    fc.assert(
      fc.property(insideV6(prefix, bits), (groups) => {
        for (const host of v6Spellings(groups)) refused(host);
      }),
      { numRuns: 50 },
    );
  });

  it('public IPv4 addresses are taken, plainly or inside IPv6', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PUBLIC_V4).chain(insideV4), (n) => {
        for (const host of v4Spellings(n)) taken(host);
      }),
      { numRuns: 200 },
    );
  });

  it('public IPv6 addresses are taken', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PUBLIC_V6).chain(([prefix, bits]) => insideV6(prefix, bits)),
        (groups) => {
          for (const host of v6Spellings(groups)) taken(host);
        },
      ),
      { numRuns: 200 },
    );
  });
});
