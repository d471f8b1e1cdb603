import pino, { type Logger } from 'pino';

/** JSON logs on stdout; secrets are redacted wherever they might appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'tributary' },
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'passwordHash',
        '*.passwordHash',
        'privateKey',
        '*.privateKey',
      ],
      censor: '[redacted]',
    },
  });
}
