/**
 * `npx tsx scripts/phone-metadata.ts`: writes the landing's phone metadata by numbering zone
 * (shared/phone/metadata/, shared/phone/metadata-zones.ts) from the installed libphonenumber-js
 * 'min' metadata, the same plans the worker checks numbers with. Run it after upgrading
 * libphonenumber-js: test/unit/landing/phone-zones.test.ts fails until then.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import metadata from 'libphonenumber-js/min/metadata';
import { callingCodesOf, PHONE_ZONES, zonesOf } from '../shared/phone/metadata-zones';

export const PHONE_METADATA_DIR = 'shared/phone/metadata';

/** Each file's path and text, as this script writes them. */
export function phoneMetadataFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const json = (value: unknown) => `${JSON.stringify(value)}\n`;
  files.set(`${PHONE_METADATA_DIR}/calling-codes.json`, json(callingCodesOf(metadata)));
  const zones = zonesOf(metadata);
  for (const zone of PHONE_ZONES) {
    files.set(`${PHONE_METADATA_DIR}/zone-${zone}.json`, json(zones[zone]));
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, text] of phoneMetadataFiles()) writeFileSync(path, text);
  console.log(`Wrote ${PHONE_METADATA_DIR}/ from libphonenumber-js's min metadata.`);
}
