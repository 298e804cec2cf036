import { describe, expect, it } from 'vitest';
import { answerToFailure } from '../support/failing-app.ts';

describe('unexpected failures', () => {
  it('answer 500 without internals, and log the details under the errorId', async () => {
    const { status, body, lines } = await answerToFailure(() => {
      throw new Error('connection to db-internal.local:5432 failed: password hunter2');
    });
    expect(status).toBe(500);
    const parsed = JSON.parse(body);
    expect(parsed).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong on our side', instruction: expect.any(String), requestId: expect.any(String), errorId: expect.stringMatching(/^err_/) });
    expect(body).not.toMatch(/hunter2|db-internal|at .*\.ts/);
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.errorId === parsed.errorId);
    expect(logged.err.message).toContain('db-internal');
  });
});
