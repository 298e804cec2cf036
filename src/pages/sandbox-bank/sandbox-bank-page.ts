import { readFileSync } from 'node:fs';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { notFound } from '../../errors.ts';
import { inlineHashes } from '../../lib/content-hash.ts';
import { readEnvironment } from '../../modules/environment/environment.service.ts';
import { CALLBACK_PATH } from '../../modules/linking/link-cookie.ts';
import { pendingLink } from '../../modules/linking/linking.ts';
import type { Institution } from '../../providers/link-flow.ts';

const TEMPLATE = readFileSync(new URL('./sandbox-bank.html', import.meta.url), 'utf8');

/** No script at all; its own style; its links lead back to this origin's callback only. */
const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${inlineHashes(TEMPLATE, 'style').join(' ')}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export interface SandboxBankDeps {
  sandbox: { institutions(): Institution[]; authorizationCode(institutionId: string): string };
}

/**
 * The sandbox redirect banks' own sign-in, as a PSD2 bank's would be: served only while a sandbox
 * link of a SANDBOX environment waits on `state`, it sends the end-user back to the callback with
 * an authorization code (Approve) or an OAuth error (Cancel: access_denied; Bank error: server_error).
 */
export function sandboxBankPage({ sandbox }: SandboxBankDeps): Handlers<'getSandboxBank'> {
  return {
    async getSandboxBank({ query, em }) {
      const link = await pendingLink(em, query.state);
      const institution = link?.provider === 'sandbox' ? sandbox.institutions().find((candidate) => candidate.id === link.institutionId) : undefined;
      if (!link || !institution || (await readEnvironment(em, link.environmentId)).mode !== 'SANDBOX') throw notFound('Sandbox sign-in');
      const back = (values: Record<string, string>) => `${CALLBACK_PATH}?${new URLSearchParams({ ...values, state: query.state }).toString()}`;
      const page = fill(TEMPLATE, {
        institution: institution.name,
        approve: back({ code: sandbox.authorizationCode(institution.id) }),
        cancel: back({ error: 'access_denied', error_description: 'The end-user cancelled the sign-in' }),
        fail: back({ error: 'server_error', error_description: 'The sandbox bank failed, as asked' }),
      });
      const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };
      return { status: 200, body: page, headers };
    },
  };
}

/** The template with each `{{name}}` replaced by its value, HTML-escaped. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => escapeHtml(values[name] ?? ''));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
