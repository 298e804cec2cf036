import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import type { FakePlaid } from '../fakes/plaid/index.ts';
import { launchChromium, openConnector as openConnectorAt } from '../support/browser.ts';
import { createProfile, sessionFor } from '../support/factories.ts';
import { PLAID_LINK_SCRIPT_URL, startPlaidApp } from '../support/plaid-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

/**
 * A stand-in for Plaid Link's script, with Link's interface (`Plaid.create({token, onSuccess,
 * onExit}).open()`): "the user" finishes Link at the fake Plaid, which hands back the public token
 * Link's onSuccess would.
 */
const STAND_IN_LINK = `
window.Plaid = {
  create({ token, onSuccess, onExit }) {
    return {
      open: async () => {
        try {
          const { publicToken, institution } = await window.fakePlaidCompleteLink(token);
          onSuccess(publicToken, { institution, accounts: [], link_session_id: 'stand-in' });
        } catch (error) {
          onExit({ error_type: 'ITEM_ERROR', error_code: 'INVALID_LINK_TOKEN', error_message: String(error), display_message: null }, {});
        }
      },
    };
  },
};`;

let app: TestApp;
let plaid: FakePlaid;
let browser: Browser;

beforeAll(async () => {
  ({ app, plaid } = await startPlaidApp());
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await plaid?.stop();
});

async function openConnector(fragment: string): Promise<{ page: Page; errors: string[]; linkTokens: string[]; close: () => Promise<void> }> {
  const linkTokens: string[] = [];
  const opened = await openConnectorAt(browser, app.service.port, fragment, async (context, page) => {
    // Nothing leaves the machine: Link's script is answered here.
    await context.route(PLAID_LINK_SCRIPT_URL, (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: STAND_IN_LINK }));
    await page.exposeFunction('fakePlaidCompleteLink', async (token: string) => {
      linkTokens.push(token);
      const { publicToken } = await plaid.completeLink(token);
      return { publicToken, institution: null };
    });
  });
  return { ...opened, linkTokens };
}

async function connectionOf(profileId: string) {
  const [row] = await app.sql('select id, status, provider, remote_id from connection where profile_id = $1', [decodeId('profile', profileId)]);
  return row;
}

describe('the connect page with Plaid', () => {
  it('opens Plaid Link with a link token, exchanges the public token, and syncs; then repairs through update mode', async () => {
    const profile = await createProfile(app);
    const token = await sessionFor(app, profile.id);
    const first = await openConnector(`token=${token}`);
    await first.page.getByText(/is connected\. Your accounts will appear in a moment\./).waitFor();
    expect(await first.page.locator('main').textContent()).not.toMatch(/conn_/);
    expect(first.errors).toEqual([]);
    expect(first.linkTokens).toHaveLength(1);
    await first.close();
    const connection = await waitFor(async () => {
      const row = await connectionOf(profile.id);
      return row?.status === 'SYNCED' ? row : undefined;
    }, 'the Plaid connection to sync', 60_000);
    expect(connection.provider).toBe('plaid');
    const stored = await app.sql('select count(*)::int as n from transaction where connection_id = $1', [connection.id]);
    expect(stored[0].n).toBe(plaid.currentTransactions(connection.remote_id).length);

    await plaid.resetLogin(connection.remote_id);
    await waitFor(async () => ((await connectionOf(profile.id)).status === 'ERROR_REPAIRABLE' ? true : undefined), 'ERROR_REPAIRABLE');
    const repair = await openConnector(`token=${token}&connection=${encodeId('connection', connection.id)}`);
    await repair.page.getByText(/is connected\. Your accounts will appear in a moment\./).waitFor();
    expect(repair.errors).toEqual([]);
    expect(repair.linkTokens).toHaveLength(1);
    await repair.close();
    await waitFor(async () => ((await connectionOf(profile.id)).status === 'SYNCED' ? true : undefined), 'the repaired connection to sync', 60_000);
    expect(plaid.items().find((item) => item.itemId === connection.remote_id)?.error).toBeNull();
  });

  it('serves the page with a CSP that admits Plaid Link and nothing else from elsewhere', async () => {
    const response = await app.http.get('/connector');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'sha256-");
    expect(csp).toContain('https://cdn.plaid.com');
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
  });
});
