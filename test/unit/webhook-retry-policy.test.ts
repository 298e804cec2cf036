import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, MIN_LOG_RETENTION_DAYS } from '../../src/config.ts';
import { MAX_RETRY_DELAY_MS, RETRY_DELAYS_SECONDS, RETRY_HORIZON_DAYS, retryAfterMs, retryDelayMs } from '../../src/modules/webhook/retry-policy.ts';

const now = new Date('2026-04-01T12:00:00Z');

describe('the retry policy', () => {
  it('follows the schedule after each failed attempt, and ends after its last delay', () => {
    const delays = RETRY_DELAYS_SECONDS.map((_, index) => retryDelayMs(index + 1, undefined, now));
    expect(delays).toEqual(RETRY_DELAYS_SECONDS.map((seconds) => seconds * 1000));
    expect(retryDelayMs(RETRY_DELAYS_SECONDS.length + 1, undefined, now)).toBeUndefined();
    expect(retryDelayMs(RETRY_DELAYS_SECONDS.length + 1, '60', now)).toBeUndefined();
  });

  it('waits longer when Retry-After asks for it, never shorter than the schedule', () => {
    expect(retryDelayMs(1, '3600', now)).toBe(3_600_000);
    expect(retryDelayMs(2, '1', now)).toBe(300_000);
    expect(retryDelayMs(1, new Date(now.getTime() + 600_000).toUTCString(), now)).toBe(600_000);
  });

  it.each([
    ['delay-seconds', '120', 120_000],
    ['delay-seconds with spaces around', ' 120 ', 120_000],
    ['an HTTP date', 'Wed, 01 Apr 2026 12:10:00 GMT', 600_000],
    ['an HTTP date in the past', 'Wed, 01 Apr 2026 11:00:00 GMT', 0],
    ['an RFC 850 date', 'Wednesday, 01-Apr-26 12:10:00 GMT', 600_000],
    ['zero', '0', 0],
  ])('reads Retry-After as %s', (_form, value, expected) => {
    expect(retryAfterMs(value, now)).toBe(expected);
  });

  it.each([
    ['huge delay-seconds (past the largest date)', '10000000000000'],
    ['delay-seconds past any number', '9'.repeat(400)],
    ['a date in year 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
  ])('caps Retry-After of %s at the schedule’s longest delay', (_form, value) => {
    expect(retryAfterMs(value, now)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(1, value, now)).toBe(MAX_RETRY_DELAY_MS);
  });

  it.each([['negative', '-5'], ['fractional', '3600.5'], ['exponent', '1e9'], ['hexadecimal', '0x10'], ['garbage', 'soon'], ['a date without its day name', '1 Apr 2027'], ['empty', ''], ['absent', undefined]])(
    'ignores Retry-After that is %s',
    (_form, value) => {
      expect(retryAfterMs(value, now)).toBe(0);
      expect(retryDelayMs(1, value, now)).toBe(5000);
    },
  );
});

describe('the retry horizon', () => {
  it('spans every retry delayed as long as Retry-After may make it, and is the shortest log retention', () => {
    const longest = RETRY_DELAYS_SECONDS.reduce((sum) => sum + MAX_RETRY_DELAY_MS, 0);
    expect(RETRY_HORIZON_DAYS).toBe(Math.ceil(longest / 86_400_000));
    expect(RETRY_HORIZON_DAYS).toBe(8);
    expect(MIN_LOG_RETENTION_DAYS).toBe(RETRY_HORIZON_DAYS);
    expect(() => loadConfig({ LOG_RETENTION_DAYS: '7' })).toThrow(ConfigError);
    expect(loadConfig({}).logRetentionDays).toBe(30);
    expect(loadConfig({ LOG_RETENTION_DAYS: '8' }).logRetentionDays).toBe(8);
  });
});
