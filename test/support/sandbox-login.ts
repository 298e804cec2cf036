import type { ProviderTransaction } from '../../src/providers/provider-records.ts';
import { DAY_MS } from '../../src/lib/dates.ts';
import { HISTORY_DAYS, dayOf } from '../../src/providers/sandbox/household.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';

/** Fixed household seeds: the same logins on every run. */
export const SEEDS = ['5f1c9a0be3d24417', '0a9e77c1d6b85f20', 'c3b8e0f4a1279d56', '9d20f6e8b4c13a77', 'e71a4c0d93f2b858'];

/**
 * A sandbox login at `institutionId` with a fixed seed, linked at `linkedAt` with `historyDays` of
 * history (the default two years), and a sandbox whose clock reads `daysAfterLink` days later. The access token is
 * the one `completeLink` issues, with the seed fixed instead of drawn.
 */
export async function sandboxAt(institutionId: string, seed: string, linkedAt: number, daysAfterLink = 0, historyDays = HISTORY_DAYS): Promise<{ provider: SandboxProvider; credential: string }> {
  const linked = await new SandboxProvider({ now: () => new Date(linkedAt) }).completeLink({ institutionId, username: 'user_good', password: 'pass_good', products: undefined, webhookUrl: null });
  const login = JSON.parse(Buffer.from(linked.credential, 'base64url').toString('utf8')) as Record<string, unknown>;
  const credential = Buffer.from(JSON.stringify({ ...login, seed, firstDay: dayOf(linkedAt) - historyDays })).toString('base64url');
  return { provider: new SandboxProvider({ now: () => new Date(linkedAt + daysAfterLink * DAY_MS) }), credential };
}

/** Every transaction a first sync stores (pages walked to the end, at most 100). */
export async function syncedTransactions(provider: SandboxProvider, credential: string): Promise<ProviderTransaction[]> {
  const stored = new Map<string, ProviderTransaction>();
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const changes = await provider.syncTransactions(credential, cursor);
    for (const transaction of [...changes.added, ...changes.modified]) stored.set(transaction.remoteId, transaction);
    for (const remoteId of changes.removed) stored.delete(remoteId);
    if (!changes.hasMore) return [...stored.values()];
    cursor = changes.nextCursor;
  }
  throw new Error('the sync did not end within 100 pages');
}

/** An exact decimal string as a whole number of 10^-10 units (the most fraction digits a quantity has). */
export function exact(decimal: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,10}))?$/.exec(decimal);
  if (!match) throw new Error(`not an exact decimal: ${decimal}`);
  const units = BigInt(match[2]!) * 10n ** 10n + BigInt((match[3] ?? '').padEnd(10, '0'));
  return match[1] ? -units : units;
}
