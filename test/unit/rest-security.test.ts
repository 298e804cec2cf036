import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Credential } from '../../src/api-kit/credential.ts';
import { admittedCredential } from '../../src/rest/security.ts';
import type { CredentialOf, HandlerInput } from '../../src/api-kit/rest-handler.ts';

const common = { environmentId: 'e', generation: 'CURRENT', apiVersion: '2026-04-01' } as const;
const apiKey: Credential = { kind: 'apiKey', apiKeyId: 'k', ...common };
const basic: Credential = { kind: 'basic', apiKeyId: 'k', profileId: 'p', ...common };
const session: Credential = { kind: 'session', sessionId: 's', profileId: 'p', ...common };

/** The error `admittedCredential` throws, as status and message. */
function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    const { status, message } = error as { status: number; message: string };
    return { status, message };
  }
  throw new Error('admitted');
}

describe("an operation's security", () => {
  it('admits the kinds it lists, as they came', () => {
    expect(admittedCredential('getProfile', apiKey)).toBe(apiKey);
    expect(admittedCredential('getProfile', basic)).toBe(basic);
    expect(admittedCredential('startLink', session)).toBe(session);
  });

  it('hands a public operation no credential, whatever was sent', () => {
    expect(admittedCredential('getHealth', apiKey)).toBeUndefined();
    expect(admittedCredential('getHealth', undefined)).toBeUndefined();
  });

  it('refuses a missing credential with 401, another kind with 403, and anything but an API key with 401 where only API keys go', () => {
    expect(refusal(() => admittedCredential('getProfile', undefined))).toEqual({ status: 401, message: 'This operation needs credentials' });
    expect(refusal(() => admittedCredential('getProfile', session))).toEqual({ status: 403, message: 'This credential cannot be used for this operation' });
    expect(refusal(() => admittedCredential('getSession', apiKey))).toEqual({ status: 403, message: 'This credential cannot be used for this operation' });
    expect(refusal(() => admittedCredential('listProfiles', basic))).toEqual({ status: 401, message: 'This operation needs an API secret key' });
    expect(refusal(() => admittedCredential('createSession', session))).toEqual({ status: 401, message: 'This operation needs an API secret key' });
  });

  it("types each handler's credential as exactly the kinds its operation lists", () => {
    expectTypeOf<CredentialOf<'getHealth'>>().toEqualTypeOf<undefined>();
    expectTypeOf<CredentialOf<'listProfiles'>['kind']>().toEqualTypeOf<'apiKey' | 'operator'>();
    expectTypeOf<CredentialOf<'getProfile'>['kind']>().toEqualTypeOf<'apiKey' | 'basic' | 'operator'>();
    expectTypeOf<CredentialOf<'listSandboxInstitutions'>['kind']>().toEqualTypeOf<'apiKey' | 'session'>();
    expectTypeOf<HandlerInput<'getSession'>['credential']>().toEqualTypeOf<Extract<Credential, { kind: 'session' }>>();
  });
});
