// Personal API tokens in a real browser: the user names a token in the User Console, copies it
// from the one answer that shows it, a script reads the public API with it (counted against the
// token's own limit), and once revoked in the console the same token is refused.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import { sessionOf, type Session } from '../src/owner';
import { cli, logInWithLink, loginLink, visible } from '../src/support';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const suffix = Math.random().toString(36).slice(2, 6);
const EMAIL = `tokens-${suffix}@tinygs.localhost`;
const TOKEN_NAME = `Dashboard ${suffix}`;

/** What a script does: a public read with the token. */
function readWith(token: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/statistics`, { headers: { authorization: `Bearer ${token}` } });
}

describe('personal API tokens in the browser', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let session: Session;

  beforeAll(async () => {
    browser = await openBrowser(inject('chromiumPath'));
    cli(dataDir, baseUrl, ['user', 'add', '--email', EMAIL]);
    page = await browser.newPage({ width: 1366, height: 900 });
    errors = collectErrors(page);
    await logInWithLink(page, baseUrl, loginLink(dataDir, baseUrl, EMAIL));
    session = await sessionOf(page);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a token that a script can use, and revokes it', async () => {
    await page.goto(`${baseUrl}/user/${session.userId}`, { waitUntil: 'load' });
    await (
      await visible(page, page.getByRole('button', { name: 'API TOKENS' }), 'API TOKENS')
    ).click();
    const dialog = page.getByRole('dialog');
    await visible(page, dialog.getByText('No tokens yet.'), 'the empty token list');
    await (await visible(page, dialog.getByLabel('Token name'), 'Token name')).fill(TOKEN_NAME);
    await dialog.getByRole('button', { name: 'Create token' }).click();

    const shown = await visible(page, dialog.locator('code', { hasText: /^tgs_/ }), 'the token');
    const token = (await shown.innerText()).trim();
    expect(token).toMatch(/^tgs_[A-Za-z0-9_-]{43}$/);
    const row = dialog.getByRole('listitem').filter({ hasText: TOKEN_NAME });
    await visible(page, row.getByText(`${token.slice(0, 8)}…`), 'the token’s first characters');

    const used = await readWith(token);
    expect(used.status).toBe(200);
    // Counted against the token's own budget (anonymous reads from loopback are not counted).
    expect(Number(used.headers.get('x-ratelimit-limit'))).toBeGreaterThan(600);

    // Reopened, the dialog lists the token but never shows it again.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'API TOKENS' }).click();
    await visible(page, row, 'the token in the list');
    expect(await dialog.getByText(token).count()).toBe(0);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: `Revoke ${TOKEN_NAME}` }).click();
    await visible(page, dialog.getByText('No tokens yet.'), 'the list without the token');
    const refused = await readWith(token);
    expect(refused.status).toBe(401);
    expect(errors).toEqual([]);
  });
});
