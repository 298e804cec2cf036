import fc from 'fast-check';
import { expect, it } from 'vitest';
import { MAX_RETRY_DELAY_MS, RETRY_DELAYS_SECONDS } from '../../src/modules/webhook/retry-policy.ts';
import { fuzzSettings } from '../fuzz/settings.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';
import { controlledDeliveries } from '../support/webhook-deliveries.ts';
import { startReceiver, type Answer } from '../support/webhook-receiver.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

const printable = fc.string({ maxLength: 40, unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) });

/** `Retry-After` in every form: delay-seconds, HTTP dates past and far future, huge, negative, fractional, garbage. */
const retryAfter = fc.oneof(
  fc.integer({ min: 0, max: 10_000_000 }).map(String),
  fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map((date) => date.toUTCString()),
  fc.constantFrom('10000000000000', '9'.repeat(400), '-5', '-10000000000000', '1e3', '3600.5', ' 60 ', '0x10', 'NaN', 'Infinity', 'soon', 'Fri, 31 Dec 275760 00:00:00 GMT'),
  printable,
);

/** A receiver's answer: any final status, with or without Retry-After, a body of any size and bytes, slow or not. */
const answers: fc.Arbitrary<Answer> = fc.record({
  status: fc.oneof(fc.integer({ min: 200, max: 599 }), fc.constantFrom(200, 204, 302, 410, 429, 500, 503)),
  headers: fc.option(retryAfter.map((value) => ({ 'Retry-After': value })), { nil: undefined }),
  body: fc.oneof(
    fc.constant(''),
    fc.string({ maxLength: 2_000 }),
    // Bytes PostgreSQL's text cannot take as they are: NUL, and invalid UTF-8.
    fc.uint8Array({ maxLength: 3_000 }).map((bytes) => Buffer.concat([Buffer.from([0xff, 0x00, 0xc3]), bytes])),
    fc.integer({ min: 0, max: 300_000 }).map((size) => Buffer.alloc(size, 'x')),
  ),
  delayMs: fc.integer({ min: 0, max: 200 }),
});

it('records every attempt, with a next attempt within the retry schedule, whatever the receiver answers', { timeout: 120_000 }, async () => {
  let answer: Answer = { status: 200 };
  const receiver = await startReceiver(() => answer);
  const settings = fuzzSettings(40);
  try {
    const property = fc.asyncProperty(answers, fc.integer({ min: 1, max: RETRY_DELAYS_SECONDS.length + 1 }), async (drawn, attempt) => {
      answer = drawn;
      const { subscription } = await build.webhookSubscription({ targetUrl: receiver.url });
      const clock = controlledDeliveries(db);
      const delivery = await build.delivery(subscription, await build.event(), { attempt, at: clock.now() });
      await clock.deliveries.attempt(delivery.id);

      const [row] = await db.sql('select status, response_status, response_excerpt, claimed_until, next_attempt_at from webhook_delivery where id = $1', [delivery.id]);
      const succeeded = drawn.status >= 200 && drawn.status < 300;
      expect(row).toMatchObject({ status: succeeded ? 'SUCCEEDED' : 'FAILED', response_status: drawn.status, claimed_until: null });
      expect(Buffer.byteLength(row.response_excerpt ?? '')).toBeLessThanOrEqual(1024 * 3);
      const retried = !succeeded && drawn.status !== 410 && attempt <= RETRY_DELAYS_SECONDS.length;
      expect(clock.queued).toHaveLength(retried ? 1 : 0);
      if (!retried) {
        expect(row.next_attempt_at).toBeNull();
        return;
      }
      const delay = (row.next_attempt_at as Date).getTime() - clock.now().getTime();
      expect(delay).toBeGreaterThanOrEqual(RETRY_DELAYS_SECONDS[attempt - 1]! * 1000);
      expect(delay).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
      expect(clock.queued[0]!.at).toEqual(row.next_attempt_at);
    });
    await fc.assert(property, { seed: settings.seed, path: settings.path, numRuns: settings.runs });
  } finally {
    await receiver.close();
  }
});
