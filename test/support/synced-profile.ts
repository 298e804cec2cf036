import { decodeId } from '../../src/lib/ids.ts';
import { createProfile } from './factories.ts';
import type { TestApp } from './test-app.ts';
import { waitFor } from './wait.ts';

/** A profile with one sandbox connection (First Platypus), its first sync done. */
export async function syncedProfile(app: TestApp, overrides: Record<string, unknown> = {}) {
  const profile = await createProfile(app, overrides);
  const connection = await app.http.post('/v1/sandbox/connections', {
    auth: app.apiKey,
    json: { profileId: profile.id, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' },
  });
  await waitFor(async () => {
    const [row] = await app.sql('select status from connection where id = $1', [decodeId('connection', connection.body.id)]);
    return row.status === 'SYNCED' ? true : undefined;
  }, 'the sync');
  return { profile, connectionId: connection.body.id as string };
}
