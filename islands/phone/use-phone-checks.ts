import { useCallback, useEffect, useRef, useState } from 'react';
import type { PhoneChecks } from './phone-checks';

/**
 * The phone checks (./phone-checks.ts) for the landing's form, fetched when the visitor first
 * turns to it (a touch, focus or keystroke, or a value typed before the island hydrated), not
 * with the page: most of the landing's script was libphonenumber and its metadata, which a
 * visitor who never types needs none of. `zones` counts the zones arrived, so the form formats
 * again what was typed while one loaded. `failed` is set when the chunk itself could not load:
 * Chromium keeps that failure for its URL, so the form then lets the worker check the number.
 */
function usePhoneChecks() {
  const [checks, setChecks] = useState<PhoneChecks | null>(null);
  const [zones, setZones] = useState(0);
  const [failed, setFailed] = useState(false);
  const pending = useRef<Promise<PhoneChecks> | null>(null);
  const engage = useCallback((): Promise<PhoneChecks> => {
    pending.current ??= import('#browser-only/islands/phone/phone-checks').then(
      ({ phoneChecks }) => {
        const made = phoneChecks(() => setZones((count) => count + 1));
        setChecks(made);
        return made;
      },
      (error: unknown) => {
        setFailed(true);
        throw error;
      },
    );
    return pending.current;
  }, []);
  /** Starts the fetch when the visitor turns to the form; a failure shows at Locate, not here. */
  const warmUp = useCallback(() => {
    engage().catch(() => {});
  }, [engage]);
  return { checks, zones, failed, engage, warmUp };
}

/** What the phone field holds; `unformatted` while typed before the rules for it had come. */
export interface PhoneEntry {
  value: string;
  country: string;
  unformatted: boolean;
}

/**
 * The field's number and country with the checks behind them. What was typed while a zone
 * loaded is formatted once it has come, and a country chosen in the list asks for its zone (a
 * value the page starts with fetches the rules at once).
 */
export function usePhoneEntry(initial: { value: string; country: string }, inputId: string) {
  const phone = usePhoneChecks();
  const [entry, setEntry] = useState<PhoneEntry>({ ...initial, unformatted: false });
  const { checks, zones, warmUp } = phone;
  // biome-ignore lint/correctness/useExhaustiveDependencies: on arrivals and countries, not keys.
  useEffect(() => {
    if (!checks) {
      if (entry.value !== '') warmUp();
      return;
    }
    // From the entry as it is now: keys typed since this render are in it.
    setEntry((now) => {
      const formatted = checks.format(now.unformatted ? now.value : '', now.country);
      if (!now.unformatted || !formatted || editingMidNumber(inputId)) return now;
      return { value: formatted.text, country: formatted.country, unformatted: false };
    });
  }, [checks, zones, entry.country]);
  return { phone, entry, setEntry };
}

/** The visitor is editing inside the number: formatting now would throw the caret to its end. */
function editingMidNumber(inputId: string): boolean {
  const input = document.getElementById(inputId);
  if (!(input instanceof HTMLInputElement) || document.activeElement !== input) return false;
  return input.selectionStart !== null && input.selectionStart < input.value.length;
}
