// The federation load run (test/src/load/federation-load.ts, `npm run load`) at a small N: real processes
// (a global instance and three following sovereigns), simulated sovereigns registered through the
// operator API and pushing signed requests. Whatever the host's load makes of the lags (those are for
// `npm run load` and docs/scaling.md), nothing may fail: no push refused, every event imported on the
// global once and only once, each follower holding all of its share, every log verifying.
import { describe, expect, test } from 'vitest';
import { runFederationLoad } from '../load/federation-load.js';

describe('the federation load run at a small N', () => {
  test('given 24 sovereigns pushing at 1 event/s for 10 s, then the global imports each event once, the followers get their share and every log verifies', async () => {
    const r = await runFederationLoad({
      n: 24,
      rate: 1,
      seconds: 10,
      drainSeconds: 60,
      followShare: 0.5,
      pullIntervalSeconds: 60,
      log: () => undefined,
    });
    expect(r.errorSamples).toEqual([]);
    expect(r.errors).toBe(0);
    expect(r.rejected).toBe(0);
    expect(r.appended).toBeGreaterThan(50);
    // Once: G holds every appended event (its unique index makes more impossible), and its import metric
    // counts none as a duplicate. Accepted imports are at least the appended ones: G also imports the three
    // followers' own events (their keys and follow declarations).
    expect(r.heldOnG).toBe(r.appended);
    expect((r.imported['push/accepted'] ?? 0) + (r.imported['pull/accepted'] ?? 0)).toBeGreaterThanOrEqual(
      r.appended,
    );
    expect((r.imported['push/duplicate'] ?? 0) + (r.imported['pull/duplicate'] ?? 0)).toBe(0);
    for (const f of r.followers) {
      expect(f.expected).toBeGreaterThan(0);
      expect(f.held).toBe(f.expected);
    }
    expect(r.relayLagMs.count).toBe(r.followers.reduce((a, f) => a + f.expected, 0));
    expect(r.verify.map((v) => [v.name, v.ok])).toEqual(r.verify.map((v) => [v.name, true]));
  }, 600_000);
});
