import { describe, expect, it } from 'vitest';
import { takeAcknowledgedBatches } from '../../../islands/analytics/ack-cookie';

/** document.cookie as the browser shows it: `reads` in turn (the last repeats); writes recorded. */
function cookieJar(...reads: string[]) {
  const writes: string[] = [];
  let read = 0;
  return {
    writes,
    get cookie() {
      return reads[Math.min(read++, reads.length - 1)] ?? '';
    },
    set cookie(line: string) {
      writes.push(line);
    },
  };
}

const A = '0a1b2c3d4e5f';
const B = 'ffeeddccbbaa';

describe('taking the acknowledgements out of gf_ack', () => {
  it('returns the ids and deletes the cookie, so later requests do not carry it', () => {
    const jar = cookieJar(`userUuid=x; gf_ack=${A}.${B}; gf_consent=granted`);
    expect(takeAcknowledgedBatches(jar, true)).toEqual([A, B]);
    expect(jar.writes).toEqual(['gf_ack=; Path=/; SameSite=Strict; Secure; Max-Age=0']);
  });

  it('keeps an id a beacon’s answer added between the read and the write', () => {
    const jar = cookieJar(`gf_ack=${A}`, `gf_ack=${A}.${B}`);
    expect(takeAcknowledgedBatches(jar, true)).toEqual([A]);
    expect(jar.writes).toEqual([`gf_ack=${B}; Path=/; SameSite=Strict; Secure`]);
  });

  it('ignores what is not a batch id, and writes nothing when there is nothing to take', () => {
    const jar = cookieJar('gf_ack=<script>.x; other=1');
    expect(takeAcknowledgedBatches(jar, true)).toEqual([]);
    expect(jar.writes).toEqual([]);
  });

  it('null when the browser keeps no cookies: no acknowledgement can ever come', () => {
    expect(takeAcknowledgedBatches(cookieJar(''), false)).toBeNull();
  });
});
