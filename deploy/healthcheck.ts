/**
 * The image's HEALTHCHECK: GET /healthz on this container's own listener, over HTTPS (the listener also
 * takes TLS when TRUST_PROXY=true). Exit 0 when it answers 200, 1 otherwise.
 *
 * The certificate is not verified: the request goes to 127.0.0.1, where the certificate (self-signed,
 * or issued for the public name) cannot match, and it never leaves the container.
 * A worker (ROLE=worker) has no listener; it is healthy while its process runs, which the runtime sees.
 */
import { request } from 'node:https';

const TIMEOUT_MS = 4000;

if (process.env.ROLE === 'worker') {
  console.log('worker: no HTTP listener; alive while the process runs');
  process.exit(0);
}

const port = Number(process.env.PORT || 8443);
const req = request({ host: '127.0.0.1', port, path: '/healthz', method: 'GET', rejectUnauthorized: false, timeout: TIMEOUT_MS }, (res) => {
  res.resume();
  console.log(`/healthz answered ${res.statusCode}`);
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
req.on('error', (error) => {
  console.log(`/healthz failed: ${error.message}`);
  process.exit(1);
});
req.end();
