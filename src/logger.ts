import pino from 'pino';
import type { Logger } from 'pino';
import type { LogLevel } from './config.ts';

/**
 * Structured JSON logs. Credentials are redacted wherever they could appear; request logs carry
 * method, route, status and ids only — never bodies or query strings, which may hold PII.
 */
export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    base: { service: 'tributary' },
    redact: {
      paths: ['authorization', 'headers.authorization', 'req.headers.authorization', '*.password', '*.secret', '*.apiKey', '*.token'],
      censor: '[redacted]',
    },
  });
}
