import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

const options = (level: string): LoggerOptions => ({
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
      // OAuth secrets, ours and the connected assistant account's (docs/assistant.md#secrets).
      'accessToken',
      '*.accessToken',
      'refreshToken',
      '*.refreshToken',
      'deviceCode',
      '*.deviceCode',
      'access_token',
      '*.access_token',
      'refresh_token',
      '*.refresh_token',
      'device_code',
      '*.device_code',
      'authorization',
      '*.authorization',
      '*.headers.authorization',
    ],
    censor: '[redacted]',
  },
});

/**
 * JSON logs on stdout; secrets are redacted wherever they might appear. `destination` (default stdout)
 * lets a test read what would be written.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return destination ? pino(options(level), destination) : pino(options(level));
}
