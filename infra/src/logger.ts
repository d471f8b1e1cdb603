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

/** How log lines are written: JSON (one object a line) or a line for a person to read. */
export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT `auto`: readable on a terminal, JSON when the output goes to a file or a collector. */
export const logFormatFor = (setting: 'auto' | LogFormat, stream: { isTTY?: boolean } = process.stdout) =>
  setting === 'auto' ? (stream.isTTY ? 'pretty' : 'json') : setting;

/**
 * JSON logs on stdout; secrets are redacted wherever they might appear. `destination` (default stdout)
 * lets a test read what would be written; `format` `pretty` turns each line into words for a terminal.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  format: LogFormat = 'json',
): Logger {
  const out = destination ?? (format === 'pretty' ? process.stdout : undefined);
  if (format === 'pretty') return pino(options(level), prettyDestination(out!));
  return out ? pino(options(level), out) : pino(options(level));
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every line has, or that the line's words already say. */
const SAID = new Set([
  'level',
  'time',
  'service',
  'msg',
  'pid',
  'hostname',
  'req',
  'res',
  'responseTime',
  'err',
]);

/** `12:00:01 INFO  tributary is ready …  key=value`; a request as `GET /path 200 3.1 ms`; an error's stack below. */
export function prettyLine(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = new Date(typeof o.time === 'number' ? o.time : Date.now()).toTimeString().slice(0, 8);
  const level = (LEVELS[o.level as number] ?? String(o.level)).padEnd(5);
  const req = o.req as { method?: string; url?: string } | undefined;
  const res = o.res as { statusCode?: number } | undefined;
  const words = [String(o.msg ?? '')];
  if (req && res) words.push(`${req.method} ${req.url} ${res.statusCode} ${String(o.responseTime)} ms`);
  const rest = Object.entries(o)
    .filter(([k, v]) => !SAID.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  let text = `${time} ${level} ${words.filter(Boolean).join(': ')}${rest.length ? `  ${rest.join(' ')}` : ''}\n`;
  const err = o.err as { message?: string; stack?: string; code?: string } | undefined;
  if (err)
    text += `    ${(err.stack ?? `${err.code ? `${err.code}: ` : ''}${err.message ?? ''}`).split('\n').join('\n    ')}\n`;
  return text;
}

function prettyDestination(out: DestinationStream): DestinationStream {
  return { write: (line: string) => out.write(prettyLine(line)) };
}
