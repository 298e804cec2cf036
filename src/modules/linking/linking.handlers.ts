import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../api-kit/credential.ts';
import { pageHeaders, pageOf } from '../../api-kit/pagination.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import { ConnectionService } from '../connection/connection.service.ts';
import { linkCookie, linkCookieOf } from './link-cookie.ts';
import { LINK_STATE_TTL_MS, type Linking, type RedirectOutcome } from './linking.ts';

export interface LinkingHandlerDeps {
  cipher: FieldCipher;
  linking: Linking;
}

/**
 * The calls the connect page (src/pages/connector/) makes as the end-user (session token), the
 * bank's way back to it, and the institution search it and apps' own pickers use.
 */
export function linkingHandlers({ cipher, linking }: LinkingHandlerDeps): Handlers<'startLink' | 'connectInstitution' | 'reconnectInstitution' | 'completeLinkRedirect' | 'searchInstitutions'> {
  // The session's profile only: its connections, and new ones for it.
  const service = (em: EntityManager, { environmentId, profileId }: Pick<Extract<Credential, { kind: 'session' }>, 'environmentId' | 'profileId'>) =>
    new ConnectionService(em, cipher, { environmentId, profileId });
  return {
    async startLink({ body, credential, em, headers }) {
      const { session, browserSecret } = await linking.start({ em, ...credential, host: headers.host }, service(em, credential), body ?? {});
      return { status: 200, body: session, headers: browserSecret ? { 'Set-Cookie': linkCookie(browserSecret, LINK_STATE_TTL_MS / 1000) } : undefined };
    },
    async connectInstitution({ body, credential, em }) {
      return { status: 201, body: await linking.connect({ em, ...credential }, service(em, credential), encodeId('profile', credential.profileId), body) };
    },
    async reconnectInstitution({ params, body, credential, em }) {
      return { status: 200, body: await linking.reconnect({ em, ...credential }, service(em, credential), params.connectionId, body) };
    },
    async searchInstitutions({ query, credential, em }) {
      const { page, limit } = pageOf(query);
      const { institutions, unavailable } = await linking.institutions({ em, environmentId: credential.environmentId }, query);
      const items = institutions.slice((page - 1) * limit, page * limit);
      const headers = pageHeaders(page, limit, institutions.length, items.length);
      return { status: 200, body: items, headers: unavailable.length > 0 ? { ...headers, 'Unavailable-Providers': unavailable.join(',') } : headers };
    },
    async completeLinkRedirect({ query, headers, clientAddress, em, log }) {
      // The bank sent the end-user's browser here: they are present for the first read, described by
      // the headers PSD2 banks ask for (a client that sends no user agent is no browser).
      const header = (name: string) => (typeof headers[name] === 'string' ? headers[name] : null);
      const userAgent = header('user-agent');
      const presence = userAgent
        ? { ipAddress: clientAddress, userAgent, referer: header('referer'), accept: header('accept'), acceptCharset: header('accept-charset'), acceptEncoding: header('accept-encoding'), acceptLanguage: header('accept-language') }
        : undefined;
      const outcome = await linking.finishRedirect(em, query, { browserSecret: linkCookieOf(headers.cookie), presence }, (scope) => service(em, scope), log);
      // The cookie stays until it expires: a reload of this URL (the back button) is then told "used already", not "not this browser".
      return { status: 303, headers: { Location: `/connector#${fragmentOf(outcome)}`, 'Referrer-Policy': 'no-referrer' } };
    },
  };
}

/** The connect page's fragment for an outcome (never a query string: it stays out of server logs). */
function fragmentOf(outcome: RedirectOutcome): string {
  const values: Record<string, string> = 'error' in outcome ? { link_error: outcome.error } : { linked: outcome.connectionId, institution: outcome.institutionName };
  return new URLSearchParams(values).toString();
}
