// `npm run load:peers`: registering N peers on a global instance through its operator API
// (peer-registration.ts, docs/scaling.md#registering-a-thousand-peers). Needs DATABASE_URL.
import { formatRegistration, measurePeerRegistration } from './peer-registration.js';

function knob(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) {
    console.error(`${name} must be a whole number from ${min} to ${max} (got ${raw})`);
    process.exit(2);
  }
  return v;
}

const r = await measurePeerRegistration({
  n: knob('LOAD_PEERS', 1000, 1, 10_000),
  concurrency: knob('LOAD_PEERS_CONCURRENCY', 8, 1, 64),
  env: {
    // `off`: registration alone, without the sync each new peer starts on G (a pull, a push).
    ...(process.env.LOAD_PEERS_SYNC === 'off' && { FEDERATION_SYNC: 'off' }),
    ...(process.env.LOAD_PEERS_NODE_OPTIONS && { NODE_OPTIONS: process.env.LOAD_PEERS_NODE_OPTIONS }),
  },
  log: (line) => console.log(line),
});
for (const line of formatRegistration(r)) console.log(line);
process.exit(r.failures.length ? 1 : 0);
