/**
 * A `.sql` file imported by the worker is its text: wrangler bundles it by its default module
 * rule for `.sql` (Text), which vitest-pool-workers applies to the tests too.
 */
declare module '*.sql' {
  const text: string;
  export default text;
}
