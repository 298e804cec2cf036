import { createHash } from 'node:crypto';
import type { ProviderFactory } from '../directory.ts';
import { ApplicationToken, rsaPrivateKey } from './application-token.ts';
import { AspspLists } from './aspsps.ts';
import { enableBankingHttp } from './enablebanking-client.ts';
import { EnableBankingProvider } from './enablebanking-provider.ts';

const API_URL = 'https://api.enablebanking.com';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Enable Banking for an environment (`npm run cli -- providers set <env> enablebanking
 * --application-id <id> --private-key-file <pem>`): the application registered in EB's control panel
 * and its private key (stored encrypted), and for tests or EB's other environments `baseUrl`. The
 * application token and the banks' lists outlive the provider instances the directory rebuilds.
 */
export function enableBankingFactory(options: { caFile?: string; now?: () => number }): ProviderFactory {
  const aspspLists = new AspspLists();
  const tokens = new Map<string, ApplicationToken>();
  return {
    name: 'enablebanking',
    parseSettings(input) {
      const { applicationId, privateKey, baseUrl } = input;
      if (!applicationId || !UUID.test(applicationId)) return { problem: 'enablebanking needs --application-id, the application id (a UUID) from the Enable Banking control panel' };
      if (!privateKey) return { problem: "enablebanking needs --private-key-file, the PEM file of the application's private key" };
      try {
        rsaPrivateKey(privateKey);
      } catch {
        return { problem: '--private-key-file must hold an RSA private key in PEM format (the .pem file the control panel generated)' };
      }
      if (baseUrl && !/^https:\/\/[^/]+/.test(baseUrl)) return { problem: '--base-url must be an https:// URL' };
      return { settings: { applicationId: applicationId.toLowerCase(), privateKey, ...(baseUrl ? { baseUrl } : {}) } };
    },
    create(settings) {
      const applicationId = settings.applicationId!;
      const key = `${applicationId}:${createHash('sha256').update(settings.privateKey!).digest('base64url')}`;
      let token = tokens.get(key);
      if (!token) {
        token = new ApplicationToken(applicationId, settings.privateKey!, options.now);
        // A key replaced by `providers set` leaves its token behind: the map holds one per application.
        for (const [old] of tokens) if (old.startsWith(`${applicationId}:`)) tokens.delete(old);
        tokens.set(key, token);
      }
      return new EnableBankingProvider({ http: enableBankingHttp(settings.baseUrl ?? API_URL, options.caFile), token, aspspLists, applicationId, now: options.now });
    },
  };
}
