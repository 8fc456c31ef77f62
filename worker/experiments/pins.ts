/** Placeholder until the pins codec lands: experiment id → variant key, `id:variant` by `.`. */
export const PINS_COOKIE = 'gf_x';
const ENTRY = /^([a-z0-9][a-z0-9_-]{0,47}):([a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9_-]*)?)$/;
export function parsePins(value: string | undefined): Map<string, string> {
  const pins = new Map<string, string>();
  for (const entry of (value ?? '').split('.')) {
    const match = ENTRY.exec(entry);
    if (match) pins.set(match[1]!, match[2]!);
  }
  return pins;
}
export function serializePins(pins: ReadonlyMap<string, string>): string {
  return [...pins].map(([id, variant]) => `${id}:${variant}`).join('.');
}
