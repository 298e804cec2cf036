/*
 * How long an attempt may take, and when the parts of delivery that wait on it take it as lost: an
 * attempt's worker that dies mid-attempt sends no word, so the claim on its row and its pg-boss job
 * each lapse after a time.
 */

/** An attempt (resolving the target, connecting, sending, reading the answer) ends after this, however the receiver behaves. */
export const TIMEOUT_MS = 15_000;

/** How long an attempt's claim on its row lasts: past it, the attempt is taken as lost and the relay's sweep queues the row again. */
export const CLAIM_MS = TIMEOUT_MS + 5_000;

/**
 * When an attempt's pg-boss job still active is taken as a dead worker's (pg-boss retries it): once a
 * claim would have lapsed, and ten seconds more for the outcome's write. It matters for the jobs such
 * a worker fetched and had not yet claimed a row for (the sweep leaves a row alone while its job exists).
 */
export const JOB_EXPIRY_SECONDS = CLAIM_MS / 1000 + 10;
