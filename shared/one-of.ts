/**
 * The type guard of a list of constants: whether a value read from outside (a header, a query, a
 * config, an argument) is one of them, narrowed to their union.
 */
export function oneOf<T extends string>(values: readonly T[]): (value: unknown) => value is T {
  const known: ReadonlySet<unknown> = new Set(values);
  return (value): value is T => known.has(value);
}
