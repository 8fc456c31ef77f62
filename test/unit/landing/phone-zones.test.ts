import { readFile } from 'node:fs/promises';
import { getCountries, getExampleNumber } from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import { countryOptions } from '../../../islands/phone/country-options';
import { phoneChecks } from '../../../islands/phone/phone-checks';
import { phoneMetadataFiles } from '../../../scripts/phone-metadata';
import type { PhoneZone } from '../../../shared/phone/metadata-zones';
import { checkPhone, formatInternational } from '../../../shared/phone/phone-number';

/** The zones' files as the build serves them, read from shared/phone/metadata/; each noted. */
function fromDisk(asked: PhoneZone[] = []) {
  return async (zone: PhoneZone) => {
    asked.push(zone);
    return JSON.parse(await readFile(`shared/phone/metadata/zone-${zone}.json`, 'utf8'));
  };
}

/** What the worker answers for the number (the whole 'min' metadata), as the form keeps it. */
function workerAnswer(input: string, country: string) {
  const checked = checkPhone(input, country);
  return { ...checked, display: checked.e164 ? formatInternational(checked.e164) : '' };
}

describe('the phone metadata by numbering zone (shared/phone/metadata/)', () => {
  it('is what scripts/phone-metadata.ts writes from the installed libphonenumber-js', async () => {
    for (const [path, text] of phoneMetadataFiles()) {
      // Run `npx tsx scripts/phone-metadata.ts` after upgrading libphonenumber-js.
      expect(JSON.parse(await readFile(path, 'utf8')), path).toEqual(JSON.parse(text));
    }
  });

  it('names every country libphonenumber knows in the form’s list, from the calling codes alone', () => {
    const listed = countryOptions('en').map((option) => option.code);
    expect(listed.sort()).toEqual(getCountries().sort());
  });
});

describe('checking a number over the zones loaded so far (SPEC.md §2, the worker’s own rule)', () => {
  it('answers as the worker for every country’s example number, national or with its + prefix', async () => {
    const checks = phoneChecks(() => {}, fromDisk());
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples);
      if (!example) continue;
      const national = example.formatNational();
      const international = example.formatInternational();
      expect(await checks.check(national, country), `${country} ${national}`).toEqual(
        workerAnswer(national, country),
      );
      expect(await checks.check(international, 'US'), `${international} from US`).toEqual(
        workerAnswer(international, 'US'),
      );
    }
  });

  it('loads only the zones a number needs, one at a time as the number names them', async () => {
    const asked: PhoneZone[] = [];
    const checks = phoneChecks(() => {}, fromDisk(asked));
    expect((await checks.check('(201) 555-0123', 'US')).e164).toBe('+12015550123');
    expect(asked).toEqual(['1']);
    // Jersey shares +44 with the UK, Kazakhstan +7 with Russia, Jamaica +1 with the US.
    expect((await checks.check('+44 7797 712345', 'US')).e164).toBe('+447797712345');
    expect((await checks.check('+7 771 000 9998', 'US')).e164).toBe('+77710009998');
    expect((await checks.check('+1 876 210 1234', 'US')).e164).toBe('+18762101234');
    // The US international prefix: the plans of the country it dials are loaded too.
    expect(await checks.check('011 49 30 123456789', 'US')).toEqual(
      workerAnswer('011 49 30 123456789', 'US'),
    );
    // A non-geographic number (+800, zone 8) is read as the worker reads it.
    expect(await checks.check('+800 1234 5678', 'US')).toEqual(
      workerAnswer('+800 1234 5678', 'US'),
    );
    expect(asked).toEqual(['1', '34', '7', '8']);
  });

  it('formats nothing until the country’s zone has come, then as the worker would', async () => {
    let arrived = 0;
    const checks = phoneChecks(() => arrived++, fromDisk());
    expect(checks.format('030123456', 'DE')).toBeNull();
    await expect.poll(() => arrived).toBe(1);
    expect(checks.format('030123456', 'DE')).toEqual({ text: '030 123456', country: 'DE' });
  });

  it('rejects when a zone cannot be fetched, and fetches it again on the next check', async () => {
    let fail = true;
    const load = fromDisk();
    const checks = phoneChecks(
      () => {},
      async (zone) => {
        if (fail) throw new Error('offline');
        return load(zone);
      },
    );
    await expect(checks.check('07400 123456', 'GB')).rejects.toThrow('offline');
    fail = false;
    expect((await checks.check('07400 123456', 'GB')).e164).toBe('+447400123456');
  });
});
