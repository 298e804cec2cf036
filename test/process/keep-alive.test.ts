import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { withServiceProcess } from '../support/service-process.ts';

// The service runs in a process of its own, so this test can keep its own event loop busy while the
// service closes an idle connection.
const tier = withServiceProcess({ KEEP_ALIVE_TIMEOUT_MS: '2000' });

describe('the test HTTP client and kept-alive connections', () => {
  it('drops an idle connection before the server said it would close it, so a busy moment never sends a request onto a closing one', async () => {
    const first = await tier.http.get('/healthz');
    expect(first.headers['keep-alive']).toBe('timeout=2');
    // Idle for the announced timeout (the server closes a moment later), then busy, reading nothing,
    // while the server closes the connection: its close waits unread, and a client that still holds
    // the connection writes the next request onto it ("socket hang up").
    await sleep(2_000);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000);
    const second = await tier.http.get('/healthz');
    expect(second.status).toBe(200);
  });
});
