import type { Capability, ErrorState } from './provider.ts';

/**
 * An upstream failure. `state` is the connection state it puts the connection in. `retryAfterSeconds`
 * set: the failure is temporary (rate limited, upstream hiccup) and the work is retried after that
 * delay (the upstream's own when it gave one) without counting as the connection's new state.
 * `ERROR_SERVICE` means the upstream refused Tributary's own request: retrying cannot help, and it
 * is logged with `upstreamRequestId` (the upstream's id of the refused request, for its support).
 */
export class ProviderError extends Error {
  readonly status: ErrorState;
  readonly retryAfterSeconds: number | undefined;
  readonly upstreamRequestId: string | undefined;
  /** ERROR_REPAIRABLE because the end-user's consent reached its end (not revoked): the connection's consent has ended. */
  readonly consentExpired: boolean;

  constructor(status: ErrorState, message: string, options: { retryAfterSeconds?: number; upstreamRequestId?: string; consentExpired?: boolean } = {}) {
    super(message);
    this.status = status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.upstreamRequestId = options.upstreamRequestId;
    this.consentExpired = options.consentExpired ?? false;
  }
}

/**
 * The upstream asks to come back later (rate limited, data not ready yet): the work is retried after
 * `retryAfterSeconds` and the connection's state does not change.
 */
export class ProviderBusy extends Error {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The upstream refuses the operator's settings for it (a key, an allowed redirect URL): nothing the
 * end-user or the app does helps. `setting` tells the operator what to fix (logged, never answered).
 */
export class ProviderMisconfigured extends ProviderError {
  readonly setting: string;

  constructor(message: string, setting: string) {
    super('ERROR_SERVICE', message);
    this.setting = setting;
  }
}

/** The cursor walk must start again from its first cursor (the upstream changed mid-pagination). */
export class SyncRestart extends Error {}

/** What the user handed the link flow cannot be used: an unknown institution, invalid input, or a sign-in the institution rejected. */
export class LinkRefused extends Error {
  readonly reason: 'NOT_FOUND' | 'INVALID' | 'CREDENTIALS';
  readonly field: string;

  constructor(reason: 'NOT_FOUND' | 'INVALID' | 'CREDENTIALS', field: string, message: string) {
    super(message);
    this.reason = reason;
    this.field = field;
  }
}

/** An inbound webhook whose signature, age or body does not verify: nothing happens. */
export class WebhookUnverified extends Error {}

/** An operation the provider does not offer (a capability it lacks). */
export class NotOffered extends Error {
  readonly capability: Capability;

  constructor(capability: Capability, provider: string) {
    super(`${provider} does not offer ${capability}`);
    this.capability = capability;
  }
}
