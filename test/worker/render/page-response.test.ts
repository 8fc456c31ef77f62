import { describe, expect, it } from 'vitest';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { pageResponse } from '../../../worker/render/render-page';

const BODY = { html: '<main><h1>Hello</h1></main>', islands: new Set<never>() };

function page(title: string, language = 'en') {
  return pageResponse(BODY, {
    nonce: 'n0nce',
    language,
    theme: 'geozilla',
    brand: DEFAULT_BRANDS.geozilla,
    title,
  });
}

/** The answer's chunks as text, in the order the stream gives them. */
async function chunks(response: Response): Promise<string[]> {
  const texts: string[] = [];
  const decoder = new TextDecoder();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    texts.push(decoder.decode(read.value));
  }
  return texts;
}

describe('pageResponse, with heads encoded once and kept', () => {
  it('sends the head as its own chunk, then the body, the same on every answer', async () => {
    const first = await chunks(page('Kept'));
    const second = await chunks(page('Kept'));
    expect(first).toHaveLength(2);
    expect(first[0]).toMatch(/^<!doctype html><html lang="en".*<title>Kept<\/title>.*<body>$/s);
    expect(first[1]).toBe('<main><h1>Hello</h1></main></body></html>');
    // A kept head is copied into each answer, never given away to one stream.
    expect(second).toEqual(first);
  });

  it('gives each language and title its own head, also once older heads have been let go', async () => {
    const titles = Array.from({ length: 100 }, (_, index) => `Title ${index}`);
    for (const title of titles) {
      expect((await chunks(page(title)))[0]).toContain(`<title>${title}</title>`);
    }
    const [again] = await chunks(page('Title 0', 'de'));
    expect(again).toContain('<html lang="de"');
    expect(again).toContain('<title>Title 0</title>');
    expect((await chunks(page('Title 0')))[0]).toContain('<html lang="en"');
  });

  it('escapes the title in the kept head', async () => {
    const [head] = await chunks(page('</title><script>x</script>'));
    expect(head).toContain('<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>');
  });
});
