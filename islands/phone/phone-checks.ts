import type { MetadataJson } from 'libphonenumber-js/core';
import { formatTyping, type PhoneCheck, phoneRules } from '../../shared/phone/phone-rules';
import { type FetchZone, zoneMetadata } from './zone-metadata';

/** A number the form may keep: E.164 and as people write it. */
export type CheckedPhone = PhoneCheck & { display: string };

/**
 * The landing's phone rules (shared/phone/phone-rules.ts, the worker's own) over the numbering
 * zones loaded so far (./zone-metadata.ts). Its own chunk, imported once the visitor turns to
 * the form (islands/phone/use-phone-checks.ts): libphonenumber and its plans are not among what
 * the landing loads to be seen.
 */
export function phoneChecks(onZoneLoaded: () => void, fetchZone?: FetchZone) {
  const zones = zoneMetadata(fetchZone);
  const rules = (metadata: MetadataJson) => phoneRules(metadata);
  const loadMissing = (missing: readonly Parameters<typeof zones.load>[0][]) => {
    for (const zone of missing) {
      zones.load(zone).then(onZoneLoaded, () => {
        // Typing goes on unformatted; Locate asks again and says so if it fails.
      });
    }
  };

  /**
   * The typed number formatted for its country, when the plans it needs are here; else null,
   * and they start loading (onZoneLoaded says when one has come).
   */
  function format(input: string, country: string): { text: string; country: string } | null {
    const tried = zones.attempt((metadata) => formatTyping(metadata, input, country));
    loadMissing(tried.missing);
    return tried.value;
  }

  /** SPEC.md §2: the Locate check, once every plan it needs has loaded (rejects if one cannot). */
  function check(input: string, country: string): Promise<CheckedPhone> {
    return zones.settle((metadata) => {
      const { checkPhone, formatInternational } = rules(metadata);
      const checked = checkPhone(input, country);
      return { ...checked, display: checked.e164 ? formatInternational(checked.e164) : '' };
    });
  }

  return { format, check };
}

export type PhoneChecks = ReturnType<typeof phoneChecks>;
