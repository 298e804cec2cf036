import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { httpClient } from './support/http-client.ts';

it('npm start prints where it listens and how to authenticate, serves, and stops cleanly (exit 0, port closed) on SIGTERM', async () => {
  const { adminUrl, template } = inject('database');
  const tls = inject('tls');
  const name = `t_shutdown_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-shutdown-'));
  try {
    const child = spawn(process.execPath, ['src/main.ts'], {
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: adminUrl.replace(/\/[^/]+$/, `/${name}`), TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let banner = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        banner += chunk;
        const match = /listening on https:\/\/localhost:(\d+)/.exec(banner);
        if (match && banner.includes('\n\n    sk_')) resolve(Number(match[1]));
      });
      child.once('exit', () => reject(new Error(`exited early: ${banner}`)));
    });
    const apiKey = /\n {4}(sk_\S+)/.exec(banner)![1]!;
    expect(JSON.parse(readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')).apiKey).toBe(apiKey);
    const http = httpClient(`https://localhost:${port}`, readFileSync(tls.certFile, 'utf8'));
    expect((await http.get('/v1/profiles', { auth: apiKey })).status).toBe(200);
    http.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(http.get('/healthz')).rejects.toThrow(/ECONNREFUSED/);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
