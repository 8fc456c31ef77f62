import { expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { OBJECT_BINDINGS } from '../worker/object-bindings';

it('the worker files wake every Durable Object namespace wrangler.toml binds for npm start', () => {
  const development = unstable_readConfig({ config: 'wrangler.toml', env: 'development' });
  const bound = development.durable_objects.bindings.map(({ name }: { name: string }) => name);
  expect([...OBJECT_BINDINGS].sort()).toEqual([...bound].sort());
});
