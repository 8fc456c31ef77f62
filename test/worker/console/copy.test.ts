import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONSOLE_COPY_API,
  type CopyCheckAnswer,
  type CopyConflictAnswer,
  type CopyPublishAnswer,
  type CopyState,
  type CopyVersionsAnswer,
} from '../../../shared/console-api/copy';
import type { InvalidAnswer } from '../../../shared/console-api/errors';
import { LOCAL_AUTHOR } from '../../../worker/access/console-access';
import { gateOf } from '../../../worker/alerts/break-glass';
import { kvLiveKeys } from '../../../worker/config/publish';
import { d1Runner } from '../../../worker/config/versions';
import { copyVersionStore } from '../../../worker/translations/copy-versions';
import { publishCopy } from '../../../worker/translations/publish-copy';
import { TRANSLATION_KEYS } from '../../../worker/translations/source';
import { freshApp, setCookies } from '../fetch-app';

/**
 * The console's Copy area against the real KV and D1, through the development worker: a copy
 * change is reviewed, published as a copy version the History lists with who, when and its diff,
 * reaches the Spanish page, and is rolled back; a broken placeholder is refused; a publish of
 * the CLI (the same worker/translations/publish-copy.ts) is in the console's history too.
 */

const fetchApp = freshApp();

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

const TITLE = 'screens.one_pager.title';
const PRICE = 'plans.catalogue.monthly.disclaimer';

function post(path: string, body: unknown, headers: Record<string, string> = SAME_ORIGIN) {
  return fetchApp(path, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function state(): Promise<CopyState> {
  return (await fetchApp(CONSOLE_COPY_API.state)).json();
}

async function versions(): Promise<CopyVersionsAnswer['versions']> {
  return ((await (await fetchApp(CONSOLE_COPY_API.versions)).json()) as CopyVersionsAnswer)
    .versions;
}

/** The <h1> of the Spanish landing page a visitor gets now. */
async function spanishHeading(): Promise<string | undefined> {
  const html = await (await freshApp()('/one_pager?custom_lng=es')).text();
  return html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1];
}

/** The manifest and the history's size, to show nothing was written. */
async function stored() {
  return {
    manifest: await env.FUNNEL_CONFIG.get(TRANSLATION_KEYS.manifest, 'text'),
    versions: await env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM copy_versions').first('n'),
  };
}

let logs: string[];
beforeEach(async () => {
  await env.CONFIG_DB.exec('DELETE FROM copy_versions');
  await env.FUNNEL_CONFIG.delete(TRANSLATION_KEYS.manifest);
  logs = [];
  vi.spyOn(console, 'log').mockImplementation((line: string) => void logs.push(line));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void logs.push(line));
  vi.spyOn(console, 'warn').mockImplementation((line: string) => void logs.push(line));
});
afterEach(() => vi.restoreAllMocks());

describe('the Copy area', () => {
  it('lists every key with its English and each language’s bundled text, by area', async () => {
    const copy = await state();
    expect(copy.head).toBeNull();
    expect(copy.live).toEqual({});
    const title = copy.keys.find((k) => k.key === TITLE);
    expect(title).toMatchObject({
      area: 'common',
      english: 'Find out where your loved ones are',
      bundled: { es: 'Descubre dónde están tus seres queridos' },
    });
    // Russian's plural forms English lacks are keys of their own, for Russian only.
    const few = copy.keys.find((k) => k.key === 'i18n.day_count_few');
    expect(Object.keys(few?.bundled ?? {})).toContain('ru');
    expect(Object.keys(few?.bundled ?? {})).not.toContain('de');
    expect(copy.languages[0]).toEqual({ code: 'en', name: 'English' });
    expect(copy.pages.es).toBe('/console/preview/default?custom_lng=es');
  });

  it('reviews, publishes a version the History lists with who, when and the diff, and the page shows it', async () => {
    const draft = { es: { [TITLE]: '¡Encuentra a los tuyos!' } };
    const check = await post(CONSOLE_COPY_API.check, { base: null, copy: draft });
    expect(check.status).toBe(200);
    expect(((await check.json()) as CopyCheckAnswer).diff).toEqual([
      { path: `copy.es.${TITLE}`, kind: 'added', after: '¡Encuentra a los tuyos!' },
    ]);
    expect((await stored()).versions).toBe(0);

    const published = await post(CONSOLE_COPY_API.publish, {
      base: null,
      copy: draft,
      note: 'shorter heading',
    });
    expect(published.status).toBe(200);
    const { version } = (await published.json()) as CopyPublishAnswer;
    expect(version).toMatchObject({
      seq: 1,
      id: 'c1',
      author: LOCAL_AUTHOR,
      note: 'shorter heading',
      source: 'console',
      base: null,
    });
    expect(await spanishHeading()).toBe('¡Encuentra a los tuyos!');
    const manifest = JSON.parse((await stored()).manifest ?? '{}');
    expect(manifest).toEqual({ timestamp: version.timestamp, languages: ['es'] });

    const [entry] = await versions();
    expect(entry).toMatchObject({ id: 'c1', author: LOCAL_AUTHOR, at: expect.any(String) });
    expect(entry?.diff).toEqual([
      { path: `copy.es.${TITLE}`, kind: 'added', after: '¡Encuentra a los tuyos!' },
    ]);
    expect((await state()).head?.id).toBe('c1');
    expect(logs.map((l) => JSON.parse(l)).filter((l) => l.event === 'copy_published')).toEqual([
      expect.objectContaining({ version: 'c1', author: LOCAL_AUTHOR, changes: 1 }),
    ]);
  });

  it('publishes English alone, says what each language sees, and lists it to translate until written', async () => {
    const english = { en: { [TITLE]: 'Find your family in one tap' } };
    const check = await post(CONSOLE_COPY_API.check, { base: null, copy: english });
    expect(check.status).toBe(200);
    const { languages } = (await check.json()) as CopyCheckAnswer;
    expect(languages.map((note) => `${note.path} ${note.kind}`)).toEqual(
      ['ar', 'de', 'es', 'fr', 'pt', 'ru'].map((l) => `copy.${l}.${TITLE} outdated`),
    );
    expect(languages.find((note) => note.language === 'es')?.message).toBe(
      'visitors reading Spanish see their current text, outdated until the Spanish text is updated',
    );
    const first = await post(CONSOLE_COPY_API.publish, { base: null, copy: english });
    expect(first.status).toBe(200);
    // The Spanish page keeps the Spanish it had; the to-do lists it in every other language.
    expect(await spanishHeading()).toBe('Descubre dónde están tus seres queridos');
    const todo = async () => (await state()).outdated.map((note) => note.path);
    expect(await todo()).toEqual(
      ['ar', 'de', 'es', 'fr', 'pt', 'ru'].map((l) => `copy.${l}.${TITLE}`),
    );

    // Spanish written and published: it leaves the to-do, the others stay.
    const written = await post(CONSOLE_COPY_API.publish, {
      base: 1,
      copy: { ...english, es: { [TITLE]: 'Encuentra a tu familia con un toque' } },
    });
    expect(written.status).toBe(200);
    expect(await spanishHeading()).toBe('Encuentra a tu familia con un toque');
    expect(await todo()).toEqual(['ar', 'de', 'fr', 'pt', 'ru'].map((l) => `copy.${l}.${TITLE}`));

    // The English changed again, the Spanish left: the review says Spanish keeps the old one.
    const again = await post(CONSOLE_COPY_API.check, {
      base: 2,
      copy: {
        en: { [TITLE]: 'Your family on one map' },
        es: { [TITLE]: 'Encuentra a tu familia con un toque' },
      },
    });
    const spanish = ((await again.json()) as CopyCheckAnswer).languages.filter(
      (note) => note.language === 'es',
    );
    expect(spanish.map((note) => `${note.path} ${note.kind}`)).toEqual([
      `copy.es.${TITLE} outdated`,
    ]);
    // Published so, the Spanish is back on the to-do: the versions say it translates the English
    // before.
    const englishAgain = await post(CONSOLE_COPY_API.publish, {
      base: 2,
      copy: {
        en: { [TITLE]: 'Your family on one map' },
        es: { [TITLE]: 'Encuentra a tu familia con un toque' },
      },
    });
    expect(englishAgain.status).toBe(200);
    expect((await todo()).sort()).toEqual(
      ['ar', 'de', 'es', 'fr', 'pt', 'ru'].map((l) => `copy.${l}.${TITLE}`),
    );
  });

  it('rolls back to an earlier version as a new one, and the page shows its copy again', async () => {
    await post(CONSOLE_COPY_API.publish, { base: null, copy: { es: { [TITLE]: 'Uno' } } });
    await post(CONSOLE_COPY_API.publish, { base: 1, copy: { es: { [TITLE]: 'Dos' } } });
    expect(await spanishHeading()).toBe('Dos');
    const rolled = await post(CONSOLE_COPY_API.rollback, { base: 2, seq: 1 });
    expect(rolled.status).toBe(200);
    expect(((await rolled.json()) as CopyPublishAnswer).version).toMatchObject({
      id: 'c3',
      source: 'rollback',
      restores: 1,
      note: 'roll back to c1',
    });
    expect(await spanishHeading()).toBe('Uno');
    expect((await versions())[0]?.diff).toEqual([
      { path: `copy.es.${TITLE}`, kind: 'changed', before: 'Dos', after: 'Uno' },
    ]);
    // Back to no override at all: the bundled text.
    await post(CONSOLE_COPY_API.publish, { base: 3, copy: {} });
    expect(await spanishHeading()).toBe('Descubre dónde están tus seres queridos');
    const unknown = await post(CONSOLE_COPY_API.rollback, { base: 4, seq: 99 });
    expect(unknown.status).toBe(404);
  });

  it('refuses a text that loses its placeholder or names a key English lacks; nothing is written', async () => {
    const before = await stored();
    for (const path of [CONSOLE_COPY_API.check, CONSOLE_COPY_API.publish]) {
      const refused = await post(path, {
        base: null,
        copy: { es: { [PRICE]: 'Cada mes. Cancela cuando quieras.', 'landing.title': 'Hola' } },
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as InvalidAnswer).errors).toEqual([
        { path: 'copy.es.landing.title', message: 'no such key in the English files' },
        { path: `copy.es.${PRICE}`, message: 'lacks {{price}}' },
      ]);
    }
    // A plural form the language has, with its number left out, is i18next's and passes.
    const plural = await post(CONSOLE_COPY_API.check, {
      base: null,
      copy: { ru: { 'i18n.day_count_few': 'несколько дней' } },
    });
    expect(plural.status).toBe(200);
    expect(await stored()).toEqual(before);
  });

  it('refuses a publish from a stale base, naming what was published meanwhile', async () => {
    await post(CONSOLE_COPY_API.publish, { base: null, copy: { es: { [TITLE]: 'Uno' } } });
    const stale = await post(CONSOLE_COPY_API.publish, {
      base: null,
      copy: { es: { [TITLE]: 'Otro' } },
    });
    expect(stale.status).toBe(409);
    expect((await stale.json()) as CopyConflictAnswer).toMatchObject({
      error: 'version_conflict',
      head: { id: 'c1' },
      changes: [{ path: `copy.es.${TITLE}`, kind: 'added', after: 'Uno' }],
    });
    expect(await spanishHeading()).toBe('Uno');
  });

  it('refuses a write that is not from the console’s own page; nothing is written', async () => {
    const before = await stored();
    const body = { base: null, copy: { es: { [TITLE]: 'Cruzado' } } };
    for (const headers of [
      { 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/json' },
      { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'text/plain' },
    ]) {
      const refused = await post(CONSOLE_COPY_API.publish, body, headers);
      expect(refused.status).toBeGreaterThanOrEqual(403);
    }
    expect(await stored()).toEqual(before);
  });

  it('lists a publish of the CLI, and the console publishes on top of it', async () => {
    const stores = {
      versions: copyVersionStore(d1Runner(env.CONFIG_DB)),
      live: kvLiveKeys(env.FUNNEL_CONFIG),
      gate: gateOf(env),
    };
    await publishCopy(stores, {
      base: null,
      copy: { de: { [TITLE]: 'Aus der Kommandozeile' } },
      author: 'ada@laptop (cli)',
      note: 'publish de.json',
      source: 'cli',
      now: new Date(),
    });
    const copy = await state();
    expect(copy.head).toMatchObject({ id: 'c1', source: 'cli', author: 'ada@laptop (cli)' });
    expect(copy.live).toEqual({ de: { [TITLE]: 'Aus der Kommandozeile' } });
    expect(copy.drift).toBeNull();
    const next = await post(CONSOLE_COPY_API.publish, {
      base: 1,
      copy: { ...copy.live, es: { [TITLE]: 'Desde la consola' } },
    });
    expect(next.status).toBe(200);
    expect((await versions()).map((v) => [v.id, v.source])).toEqual([
      ['c2', 'console'],
      ['c1', 'cli'],
    ]);
    // KV written around both (wrangler kv): the console says so.
    await env.FUNNEL_CONFIG.put(TRANSLATION_KEYS.manifest, '{"timestamp": 1, "languages": []}');
    expect((await state()).drift).toMatch(/KV's copy is not c2/);
  });

  it('previews a draft on the marketer’s preview pages only, publishing nothing', async () => {
    const before = await stored();
    const draft = { es: { [TITLE]: 'Solo en la vista previa' } };
    const refused = await post(CONSOLE_COPY_API.preview, {
      copy: { es: { [PRICE]: 'sin precio' } },
    });
    expect(refused.status).toBe(400);
    // A field its documented body does not name is refused before the copy is read.
    const extra = await post(CONSOLE_COPY_API.preview, { copy: draft, publish: true });
    expect(extra.status).toBe(400);
    expect(await extra.json()).toEqual({ ok: false, error: 'bad_request' });
    const previewed = await post(CONSOLE_COPY_API.preview, { copy: draft });
    expect(previewed.status).toBe(200);
    const { pages } = (await previewed.json()) as { pages: Record<string, string> };
    expect(pages.es).toMatch(
      /^\/console\/preview\/default\?custom_lng=es&copy_draft=[0-9a-f-]{36}\.\d+\./,
    );
    expect(setCookies(previewed).has('gf_copy_draft')).toBe(false);
    // Opening the draft's link starts the preview with the draft, and drops the token from the page's address.
    const opened = await fetchApp(pages.es!);
    expect(opened.headers.get('location')).toBe('/?custom_lng=es');
    const draftCookie = setCookies(opened).get('gf_copy_draft');
    // The preview is bound to the visitor id the link gave this browser, which had none.
    const previewCookie = `userUuid=${setCookies(opened).get('userUuid')}; gf_preview=${setCookies(opened).get('gf_preview')}`;
    expect(draftCookie).toBeTruthy();
    expect(previewCookie).toMatch(/^userUuid=[0-9a-f-]{36}; gf_preview=[\w.-]+$/);

    const headingWith = async (cookie: string) => {
      const html = await (
        await freshApp()('/one_pager?custom_lng=es', { headers: { cookie } })
      ).text();
      return html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1];
    };
    expect(await headingWith(`${previewCookie}; gf_copy_draft=${draftCookie}`)).toBe(
      'Solo en la vista previa',
    );
    // The preview's bar says the page shows the Copy area's draft, and only then.
    const barWith = async (cookie: string) => {
      const html = await (
        await freshApp()('/one_pager?custom_lng=es', { headers: { cookie } })
      ).text();
      return html.match(/<p class="preview-bar__text">(.*?)<\/p>/)?.[1]?.replace(/<[^>]+>/g, '');
    };
    expect(await barWith(`${previewCookie}; gf_copy_draft=${draftCookie}`)).toBe(
      'Preview of variant default with the Copy area’s draft — not counted, no ads',
    );
    expect(await barWith(previewCookie)).toBe('Preview of variant default — not counted, no ads');
    // Without the preview (ended, or never started), or with a forged draft: the live text.
    const bundled = 'Descubre dónde están tus seres queridos';
    expect(await headingWith(`gf_copy_draft=${draftCookie}`)).toBe(bundled);
    const forged = draftCookie!.replace(/\.[^.]+$/, `.${'A'.repeat(43)}`);
    expect(await headingWith(`${previewCookie}; gf_copy_draft=${forged}`)).toBe(bundled);
    // Both cookies copied into another browser: no preview there, so no draft either.
    const copied = previewCookie.replace(/^userUuid=[0-9a-f-]+/, `userUuid=${crypto.randomUUID()}`);
    expect(await headingWith(`${copied}; gf_copy_draft=${draftCookie}`)).toBe(bundled);
    expect(await spanishHeading()).toBe(bundled);
    expect(await stored()).toEqual(before);
    // Any other preview link (a variant's, the live copy's) shows the live copy again.
    const plain = await fetchApp('/console/preview/default?custom_lng=es', {
      headers: { cookie: `gf_copy_draft=${draftCookie}` },
    });
    expect(plain.headers.getSetCookie().filter((c) => c.startsWith('gf_copy_draft='))).toEqual([
      expect.stringMatching(/^gf_copy_draft=; Max-Age=0/),
    ]);
  });

  it('previews the live copy, and says so in the log, when a stored draft is no copy any more', async () => {
    const previewed = await post(CONSOLE_COPY_API.preview, {
      copy: { es: { [TITLE]: 'Solo en la vista previa' } },
    });
    const { pages } = (await previewed.json()) as { pages: Record<string, string> };
    const opened = await fetchApp(pages.es!);
    const set = setCookies(opened);
    const cookie = `userUuid=${set.get('userUuid')}; gf_preview=${set.get('gf_preview')}; gf_copy_draft=${set.get('gf_copy_draft')}`;
    const draftId = pages.es!.match(/copy_draft=([0-9a-f-]{36})\./)![1]!;
    // Cut short in KV (a hand edit, a bad restore): the page still answers, with the live text.
    await env.FUNNEL_CONFIG.put(`translations:draft:${draftId}`, '{"es":{"screens.one_pag');
    const page = await freshApp()('/one_pager?custom_lng=es', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect((await page.text()).match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1]).toBe(
      'Descubre dónde están tus seres queridos',
    );
    expect(logs.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({
        warning: 'stored_copy_unreadable',
        where: `translations:draft:${draftId}`,
      }),
    );
  });
});
