import { describe, expect, it } from 'vitest';
import { CARD_AGAIN_QUERY } from '../../../shared/api/payment-provider-paths';
import { freshApp } from '../fetch-app';

/**
 * The upsell's card form loads lazily in the browser (islands/UpsellPurchase.tsx): only the
 * visitor who types their card again fetches it. The server still draws it in the page, whole,
 * so the visitor sees the form at first paint and hydration keeps it until its chunk is here.
 */
describe('an island part loaded lazily', () => {
  const fetchApp = freshApp();

  it('is drawn in place in the page, with no fallback or inline script to swap it in', async () => {
    const query = `${CARD_AGAIN_QUERY.name}=${CARD_AGAIN_QUERY.value}`;
    const res = await fetchApp(`/upsell_an_private?${query}`, {
      headers: { cookie: `userUuid=${crypto.randomUUID()}` },
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    // The card form, its name field and its button, inside a completed Suspense boundary.
    expect(html).toMatch(/<!--\$--><form[^>]*><fieldset class="card-form"/);
    expect(html).toContain('autoComplete="cc-name"');
    // React's streamed fallback for a part not ready: a pending boundary and its swap script.
    expect(html).not.toContain('<!--$?-->');
    expect(html).not.toMatch(/\$RC\(|<template id="B:/);
  });

  it('is left out of a page that does not show it', async () => {
    const res = await fetchApp('/upsell_an_private', {
      headers: { cookie: `userUuid=${crypto.randomUUID()}` },
    });
    const html = await res.text();
    expect(html).not.toContain('class="card-form"');
    expect(html).not.toMatch(/rel="modulepreload"[^>]*CardEntry/);
  });
});
