/**
 * JSON that is safe to place inside an inline <script>: `<` cannot close the script, and
 * U+2028 / U+2029 cannot end a JavaScript line. Read as JavaScript, it is the same value for
 * objects without a `__proto__` key (a literal's `__proto__` sets the prototype); the page only
 * serialises objects whose keys are ours.
 */
export function serializeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
