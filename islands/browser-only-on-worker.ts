/**
 * What every `#browser-only/<path>` module (package.json "imports") is on workerd: code the
 * islands load lazily, in the browser alone (the phone form's rules, the payment providers'
 * adapters and their SDKs, ...). The worker renders the islands too, and its bundler follows
 * their lazy imports; this empty module stands in for each, so none of that code sits in the
 * worker's bundle (test/unit/production-bundle.test.ts), where no request would run it.
 */
export {};
