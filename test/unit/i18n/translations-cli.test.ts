import { describe, expect, it } from 'vitest';
import {
  checkOverride,
  languageOfFile,
  manifestFromKv,
  nextCopy,
  parseCliArgs,
} from '../../../scripts/translations-document';

describe('npm run translations: arguments', () => {
  it('reads the commands and their operands', () => {
    expect(parseCliArgs(['publish', 'es.json', 'de.json', '--remote', '--env', 'staging'])).toEqual(
      {
        kind: 'run',
        command: { name: 'publish', files: ['es.json', 'de.json'] },
        options: { remote: true, environment: 'staging', persistTo: undefined },
      },
    );
    expect(parseCliArgs(['remove', 'es'])).toMatchObject({
      command: { name: 'remove', languages: ['es'] },
    });
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
  });

  it.each([
    [[], 'no command given'],
    [['publish'], 'publish takes override files'],
    [['get', 'x'], 'get takes no arguments'],
    [['get', '--remote', '--persist-to', 'x'], '--persist-to is for local KV'],
    [['publish', 'es.json', '--remote'], '--remote needs --env staging or --env production'],
    [['push'], 'unknown command "push"'],
  ])('refuses %j', (argv, error) => {
    const parsed = parseCliArgs(argv);
    expect(parsed.kind).toBe('usage-error');
    expect(parsed.kind === 'usage-error' ? parsed.error : '').toContain(error);
  });

  it('takes the language from the file name', () => {
    expect(languageOfFile('copy/pt.json')).toBe('pt');
  });
});

describe('npm run translations: override files', () => {
  it('accepts nested and dotted keys English has, and counts them', () => {
    const text = JSON.stringify({
      screens: { one_pager: { title: '¡Hola!' } },
      'i18n.trial_days_many': 'Prueba de {{count}} de días',
    });
    expect(checkOverride('es', text)).toMatchObject({
      ok: true,
      value: { language: 'es', keys: 2 },
    });
  });

  it('accepts the plural forms of the language, not those of English', () => {
    const few = JSON.stringify({ 'i18n.day_count_few': '{{count}} дня' });
    expect(checkOverride('ru', few).ok).toBe(true);
    expect(checkOverride('de', few)).toEqual({
      ok: false,
      error: 'de: i18n.day_count_few: no such key in the English files',
    });
  });

  it('refuses a key English lacks, and a lost or unknown variable', () => {
    const text = JSON.stringify({
      'screens.one_pager.titel': 'x',
      'i18n.trial_days_other': 'Prueba de días',
      'screens.one_pager.lead': 'Desde {{price}}',
    });
    const result = checkOverride('es', text);
    expect(result.ok).toBe(false);
    const error = result.ok ? '' : result.error;
    expect(error).toContain('screens.one_pager.titel: no such key in the English files');
    expect(error).toContain('screens.one_pager.lead: unknown {{price}}');
    // A plural form may spell its number out, so {{count}} is not required there...
    expect(error).not.toContain('trial_days_other');
  });

  it('refuses a language that does not ship, and an invalid file', () => {
    expect(checkOverride('it', '{}')).toMatchObject({ ok: false });
    expect(checkOverride('es', '{"title": 5}')).toMatchObject({ ok: false });
  });
});

describe('npm run translations: publishing', () => {
  it('replaces the languages of the files, drops the removed ones and carries over the rest', () => {
    const es = checkOverride('es', '{"landing": {"phone": {"locate": "Buscar"}}}');
    if (!es.ok) throw new Error(es.error);
    const current = {
      de: { 'landing.phone.locate': 'Orten!' },
      es: { 'common.continue': 'Seguir' },
      fr: { 'common.continue': 'Suivant' },
    };
    expect(nextCopy({ current, files: [es.value], remove: ['fr'] })).toEqual({
      de: { 'landing.phone.locate': 'Orten!' },
      es: { 'landing.phone.locate': 'Buscar' },
    });
  });

  it('reads a missing manifest as none, and refuses an invalid one', () => {
    expect(manifestFromKv(null)).toEqual({ ok: true, value: null });
    expect(manifestFromKv('{"timestamp": 0}').ok).toBe(false);
  });
});
