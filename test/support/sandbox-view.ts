import { DAY_MS } from '../../src/lib/dates.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';

/** The remote ids a sync of a sandbox `credential` must have stored, asked of the sandbox on the day (since the epoch) the sync ended. */
export async function expectedRemoteIds(credential: string, day: number): Promise<string[]> {
  const sandbox = new SandboxProvider({ now: () => new Date(day * DAY_MS) });
  const ids = new Set<string>();
  for (let cursor: string | null = null; ; ) {
    const page = await sandbox.syncTransactions(credential, cursor);
    for (const transaction of [...page.added, ...page.modified]) ids.add(transaction.remoteId);
    for (const remoteId of page.removed) ids.delete(remoteId);
    if (!page.hasMore) break;
    cursor = page.nextCursor;
  }
  return [...ids].sort();
}
