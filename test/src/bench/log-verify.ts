// Benchmark 4: the auditor's check (`tributary log verify`) against bare Ed25519 verification.
//
//   subject  — `verifyLog(pool)` over the whole log: read in batches, strict parse, shape check, key
//              lookup, canonicalize, verify, row/envelope agreement, then the version-chain query;
//   baseline — `crypto.verify(null, input, key, sig)` over the same events, with the canonical signing
//              inputs, signature buffers and KeyObjects all prepared beforehand (only verify is timed).
import type { Envelope } from '@tributary/domain';
import { publicKeyFromBase64url, signingInput, verifyLog } from '@tributary/infra';
import { verify, type KeyObject } from 'node:crypto';
import {
  ensureFederableEvents,
  interleave,
  row,
  scaled,
  type BenchContext,
  type ResultRow,
} from './bench-kit.js';

export async function logVerifyBenchmark(ctx: BenchContext): Promise<ResultRow[]> {
  // Give the log at least 10k events (scaled) to check; run first, it holds just these.
  await ensureFederableEvents(ctx, scaled(ctx, 10_000, 1000));

  // Prepare the baseline (untimed): every envelope's signing input, signature and key, in memory.
  const { rows } = await ctx.pool.query<{ type: string; envelope: string }>(
    'SELECT type, envelope FROM events ORDER BY position',
  );
  const keys = new Map<string, KeyObject>();
  const inputs: Buffer[] = [];
  const sigs: Buffer[] = [];
  const keyOf: KeyObject[] = [];
  for (const r of rows) {
    const envelope = JSON.parse(r.envelope) as Envelope;
    if (r.type === 'instance.initialized') {
      const k = (envelope.data as { signingKey: { keyId: string; publicKey: string } }).signingKey;
      keys.set(`${envelope.origin} ${k.keyId}`, publicKeyFromBase64url(k.publicKey));
    }
    const key = keys.get(`${envelope.origin} ${envelope.keyId}`);
    if (!key) throw new Error(`no key for ${envelope.origin} ${envelope.keyId}`);
    inputs.push(signingInput(envelope));
    sigs.push(Buffer.from(envelope.sig, 'base64url'));
    keyOf.push(key);
  }
  const total = inputs.length;
  ctx.log(`    the log holds ${total} events`);

  const results = await interleave(ctx, [
    {
      name: 'bare crypto.verify',
      async run({ warmup }) {
        const n = warmup ? Math.min(total, 1000) : total;
        let bad = 0;
        for (let i = 0; i < n; i++) if (!verify(null, inputs[i]!, keyOf[i]!, sigs[i]!)) bad += 1;
        if (bad > 0) throw new Error(`${bad} signatures did not verify`);
        return n;
      },
    },
    {
      name: 'verifyLog(pool)',
      // verifyLog has no partial mode, so a warm-up would cost a whole extra pass over the log.
      noWarmup: true,
      async run() {
        const report = await verifyLog(ctx.instance.pool);
        if (!report.ok) throw new Error(`verifyLog failed: ${JSON.stringify(report.firstBad)}`);
        if (report.events < total) throw new Error(`verifyLog checked ${report.events} of ${total} events`);
        return report.events;
      },
    },
  ]);
  return [
    row(
      '4. log verify vs bare verify',
      'ev',
      results.get('verifyLog(pool)')!,
      results.get('bare crypto.verify')!,
      0.6,
    ),
  ];
}
