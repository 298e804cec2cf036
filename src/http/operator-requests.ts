import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { AppError } from '../errors.ts';
import type { AuditOutcome } from '../modules/operator/audit-entry.entity.ts';
import { recordAudit } from '../modules/operator/audit.store.ts';
import { toAppError } from './errors.ts';
import type { AppContext, AppState } from './state.ts';

/** Methods that change nothing: the only ones a console session may send without its CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const csrfRefused = (why: string) =>
  new AppError(403, 'CSRF_REFUSED', `Refused as a possible cross-site request: ${why}`, {
    instruction: 'Send the session\'s csrfToken (GET /v1/console/session) in X-CSRF-Token, from the service\'s own origin.',
  });

/**
 * What a request made with the console's session cookie goes through, after its credential is known
 * (docs/decisions/operators-csrf.md and operators-audit-log.md): a state-changing one must come from
 * the service's own origin (`Origin`: the request's own host, or PUBLIC_URL) and carry the session's
 * CSRF token in `X-CSRF-Token` (compared in constant time), else 403 CSRF_REFUSED and nothing is done;
 * then, whatever its answer (refusals included), it is appended to the audit log. `now` is the service's clock.
 */
export function operatorRequests(publicUrl: string | undefined, now: () => Date): Middleware<AppState> {
  const publicOrigin = publicUrl && new URL(publicUrl).origin;
  return async (ctx, next) => {
    const credential = ctx.state.credential;
    if (credential?.kind !== 'operator' || SAFE_METHODS.has(ctx.method)) {
      await next();
      return;
    }
    let status = 500;
    try {
      const origin = ctx.get('Origin');
      if (!origin || (origin !== `${ctx.protocol}://${ctx.host}` && origin !== publicOrigin)) throw csrfRefused(origin ? `Origin ${origin} is not this service` : 'no Origin header');
      if (!sameToken(ctx.get('X-CSRF-Token'), credential.csrfToken)) throw csrfRefused('X-CSRF-Token is missing or is not this session\'s');
      await next();
      status = ctx.status;
    } catch (error) {
      status = toAppError(error).status;
      throw error;
    } finally {
      await audit(ctx, credential, status, now());
    }
  };
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function outcomeOf(status: number): AuditOutcome {
  if (status < 300) return 'SUCCEEDED';
  return [401, 403, 429].includes(status) ? 'REFUSED' : 'FAILED';
}

async function audit(ctx: AppContext, credential: { operatorId: string; email: string; environmentId: string }, status: number, at: Date): Promise<void> {
  const route = ctx.state.route;
  try {
    await recordAudit(ctx.state.unforked.em, {
      at,
      operatorId: credential.operatorId,
      email: credential.email,
      environmentId: credential.environmentId || null,
      action: route?.operationId ?? `${ctx.method} ${ctx.path}`,
      targetId: Object.values(route?.params ?? {})[0] ?? null,
      clientAddress: ctx.ip,
      userAgent: ctx.get('User-Agent') || null,
      outcome: outcomeOf(status),
      status,
    });
  } catch (error) {
    // The action is done and answered; a lost audit entry is logged loudly rather than turned into its failure.
    ctx.state.log.error({ err: error, action: route?.operationId }, 'audit entry not written');
  }
}
