import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { asOperator, signIn } from '../support/console.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

/** `npm run cli -- …args` on the app's database and DATA_DIR (its keys). */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/cli.ts', ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
  });
}

describe('npm run cli -- operators', () => {
  it('creates an operator whose printed password signs in, lists, resets and disables them', async () => {
    const environmentId = encodeId('environment', app.environmentId);
    const created = await cli('operators', 'create', '--email', 'Dev@Example.com', '--role', 'DEVELOPER', '--environment', environmentId);
    expect(created.code, created.stderr).toBe(0);
    const password = /Password \(shown this once; give it to them now\):\n\n {2}(\S+)/.exec(created.stdout)![1]!;
    const session = await signIn(app, 'dev@example.com', password);
    expect((await app.http.get('/v1/profiles', asOperator(session, environmentId))).status).toBe(200);

    const listed = await cli('operators', 'list');
    expect(listed.stdout).toContain(`dev@example.com  ${environmentId}:DEVELOPER`);
    expect(listed.stdout).toContain('admin@tributary.local  every environment:OWNER');
    expect(listed.stdout).not.toContain(password);

    const taken = await cli('operators', 'create', '--email', 'dev@example.com', '--role', 'VIEWER');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('exists already');

    const reset = await cli('operators', 'reset', 'dev@example.com');
    expect(reset.code, reset.stderr).toBe(0);
    const newPassword = /New password \(shown this once\):\n\n {2}(\S+)/.exec(reset.stdout)![1]!;
    expect((await app.http.get('/v1/console/session', asOperator(session))).status).toBe(401);
    const again = await signIn(app, 'dev@example.com', newPassword);

    const disabled = await cli('operators', 'disable', 'dev@example.com');
    expect(disabled.code, disabled.stderr).toBe(0);
    expect((await app.http.get('/v1/console/session', asOperator(again))).status).toBe(401);
    expect((await app.http.post('/v1/console/sign-in', { json: { email: 'dev@example.com', password: newPassword } })).body.code).toBe('SIGN_IN_REFUSED');
    expect((await cli('operators', 'disable', 'op_nonsense')).code).toBe(1);
  }, 180_000);
});
