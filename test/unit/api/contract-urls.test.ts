import { describe, expect, it } from 'vitest';
import { DeeplinkResponse } from '../../../shared/api/contract';

/** The deeplink answer of SPEC.md §7 with `short_deeplink` set to `link`. */
const answerWith = (link: string) => ({
  data: { short_deeplink: link, qr_code: 'data:image/svg+xml;base64,PHN2Zy8+' },
});

describe('URL fields of the contract take https links only', () => {
  it('takes an https link', () => {
    const link = 'https://gz.example/l/abc?token=t0k3n';
    expect(DeeplinkResponse.parse(answerWith(link)).data.short_deeplink).toBe(link);
  });

  it('takes http to this machine only: the local funnel on plain http crosses no network', () => {
    for (const link of ['http://localhost:8787/app/login?token=t', 'http://127.0.0.1:8787/x']) {
      expect(DeeplinkResponse.parse(answerWith(link)).data.short_deeplink).toBe(link);
    }
  });

  it.each([
    ['http: (the login token in the clear)', 'http://gz.example/l/abc?token=t0k3n'],
    ['javascript: (runs in our page when followed)', 'javascript:alert(document.cookie)'],
    ['data: (a page of the sender’s making)', 'data:text/html,<script>alert(1)</script>'],
    ['another scheme', 'ftp://gz.example/l/abc'],
    ['https without a host', 'https://'],
    ['http to a host that only looks local', 'http://localhost.gz.example/l/abc?token=t0k3n'],
    ['no URL at all', 'gz.example/l/abc'],
  ])('refuses %s', (_, link) => {
    const parsed = DeeplinkResponse.safeParse(answerWith(link));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['data', 'short_deeplink']);
  });
});
