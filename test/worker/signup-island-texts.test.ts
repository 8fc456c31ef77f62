import { reset } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { freshApp } from './fetch-app';
import { islandProps } from './page-html';

/**
 * What the signup form's island is handed to say, in the visitor's language: the island shows
 * each answer's text beside the field (test/unit/signup/signup-form.test.tsx), the worker's /api
 * answers an address taken in any letters 422 `email_taken` (test/worker/api/portal-faults.test.ts,
 * test/worker/portal/signup.test.ts).
 */

afterEach(() => reset());

describe('the signup form’s texts', () => {
  it('say an address is taken, and where to log in, in German for a German browser', async () => {
    const page = await freshApp()('/signup', { headers: { 'accept-language': 'de-DE,de' } });
    const html = await page.text();
    expect(html).toContain('<html lang="de"');
    const props = islandProps(html, 'SignupForm') as {
      text: { takenNext: string };
      errors: { email_exists: string };
    };
    expect(props.errors.email_exists).toBe('Diese E-Mail-Adresse wird bereits verwendet.');
    expect(props.text.takenNext).toBe(
      'Zu dieser Adresse gibt es schon ein Konto: Melde dich damit in der App an oder nutze eine andere E-Mail-Adresse.',
    );
  });
});
