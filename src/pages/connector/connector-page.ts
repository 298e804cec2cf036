import { readFileSync } from 'node:fs';
import { inlineHashes } from '../../lib/content-hash.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';

const PAGE = readFileSync(new URL('./connector.html', import.meta.url), 'utf8');

/**
 * The page's own inline script and style may run, and Plaid Link's script from its origin (Link
 * opens its UI in a frame of that origin); the page talks to this origin only.
 */
function contentSecurityPolicy(plaidLinkScriptUrl: string): string {
  const plaid = new URL(plaidLinkScriptUrl).origin;
  return `default-src 'none'; script-src ${inlineHashes(PAGE, 'script').join(' ')} ${plaid}; style-src ${inlineHashes(PAGE, 'style').join(' ')}; frame-src ${plaid}; connect-src 'self' ${plaid}; img-src ${plaid}; base-uri 'none'; form-action 'none'; frame-ancestors *`;
}

/**
 * The hosted connect page: static HTML whose script calls the linking operations as the end-user
 * (session token, src/modules/linking/linking.handlers.ts). `plaidLinkScriptUrl` is Plaid Link's
 * script: the page may load it, and nothing else from elsewhere.
 */
export function connectorPage({ plaidLinkScriptUrl }: { plaidLinkScriptUrl: string }): Handlers<'getConnector'> {
  const headers = {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': contentSecurityPolicy(plaidLinkScriptUrl),
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
  return { getConnector: () => ({ status: 200, body: PAGE, headers }) };
}
