import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { LogLevel } from './config.ts';
import { serializeError } from './lib/error-serializer.ts';

/**
 * Structured JSON logs. Credentials are redacted wherever they could appear; request logs carry
 * method, route, status and ids only — never bodies or query strings, which may hold PII; errors
 * never carry the data a database error quotes. Logs go to stdout unless given a destination.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'tributary' },
    serializers: { err: serializeError },
    redact: {
      paths: ['authorization', 'headers.authorization', 'req.headers.authorization', '*.password', '*.secret', '*.apiKey', '*.token'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
