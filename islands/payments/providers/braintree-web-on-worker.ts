/**
 * What braintree-web's modules are in the worker's bundles (wrangler.toml [alias]): the card
 * form loads them in the browser only, when a Braintree checkout opens, but wrangler's esbuild
 * follows the islands' lazy imports into the worker, which renders the islands too. Their
 * 270 KB would sit in every isolate's memory and start-up; this is what the worker gets instead.
 */
function create(): never {
  throw new Error('braintree-web runs in the browser, never on the worker');
}

export default { create };
