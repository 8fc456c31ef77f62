import { exports } from 'cloudflare:workers';
import { expect, it } from 'vitest';

it('serves the first screen of the default flow at /', async () => {
  const res = await exports.default.fetch('https://funnel.test/?a=1');
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('id="continue-button"');
});
