import { describe, expect, it } from 'vitest';
import { isLoopbackUrl } from '../../src/lib/loopback.ts';

describe('isLoopbackUrl', () => {
  it('knows the names and addresses only this machine reaches', () => {
    for (const url of ['https://localhost:8443', 'https://LOCALHOST.', 'https://api.localhost', 'https://127.0.0.1', 'https://127.8.9.10:1', 'https://[::1]:8443', 'https://[::ffff:127.0.0.1]', 'https://0.0.0.0', 'https://[::]']) {
      expect(isLoopbackUrl(url), url).toBe(true);
    }
  });

  it('leaves names and addresses others may reach alone', () => {
    for (const url of ['https://tributary.example.com', 'https://localhost.example.com', 'https://10.0.0.5', 'https://128.0.0.1', 'https://[2001:db8::1]', 'https://[::ffff:10.0.0.1]']) {
      expect(isLoopbackUrl(url), url).toBe(false);
    }
  });
});
