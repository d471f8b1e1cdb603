// `tributary keys`: the instance's own signing keys.
import type { Command } from 'commander';
import { rt, UsageError, withInstance, runOp, printList, parseDuration } from '../command-kit.js';

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description("the instance's own signing keys");
  keys
    .command('list')
    .description(
      "the instance's keys: key id, valid from, valid until, revoked after; the current one marked",
    )
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withInstance(async (instance) => {
        const all = await rt.instanceKeys(instance.services);
        const current = all.findLast((k) => k.validUntil === undefined)?.keyId;
        const rows = all.map((k) => ({
          keyId: k.keyId,
          publicKey: k.publicKey,
          validFrom: k.validFrom,
          validUntil: k.validUntil ?? null,
          revokedAfter: k.revokedAfter ?? null,
          current: k.keyId === current,
          heldHere: instance.keys.held(k.keyId) !== undefined,
        }));
        printList(
          rows,
          [
            ['KEY ID', (r) => r.keyId],
            ['STATE', (r) => (r.current ? 'current' : r.revokedAfter ? 'revoked' : 'retired')],
            ['VALID FROM', (r) => r.validFrom],
            ['VALID UNTIL', (r) => r.validUntil ?? ''],
            ['REVOKED AFTER', (r) => r.revokedAfter ?? ''],
          ],
          o,
        );
      }),
    );
  keys
    .command('rotate')
    .description(
      'sign with a new key from now on; the current key stays valid for the overlap (default 24h) and keeps verifying what it signed',
    )
    .option(
      '--overlap <duration>',
      'how long the previous key stays valid: 90s, 15m, 24h, 7d (60s to 30d)',
      '24h',
    )
    .action((o: { overlap: string }) => {
      const overlapSeconds = parseDuration(o.overlap, '--overlap');
      if (overlapSeconds < rt.MIN_KEY_OVERLAP_SECONDS)
        throw new UsageError(
          `--overlap is at least ${rt.MIN_KEY_OVERLAP_SECONDS}s: every process must switch within it`,
        );
      // The same operation as POST /api/ops/svc.instance.rotate_key and the MCP tool.
      return withInstance(async (instance) => {
        const r = await runOp(instance, 'svc.instance.rotate_key', { overlapSeconds });
        console.log(`new key:      ${String(r.keyId)} (signing from ${String(r.validFrom)})`);
        console.log(`previous key: ${String(r.previousKeyId)} (valid until ${String(r.previousValidUntil)})`);
        console.log(`key file:     ${instance.keys.dir}`);
      });
    });
  keys
    .command('revoke <keyId>')
    .description(
      'disown what a compromised key signed from a time on (default now): log verify flags it and peers refuse it',
    )
    .option('--after <time>', 'RFC 3339 time from which its signatures are not ours (default: now)')
    .action((keyId: string, o: { after?: string }) => {
      const after = o.after === undefined ? new Date() : new Date(o.after);
      if (o.after !== undefined && (!/^\d{4}-\d{2}-\d{2}T/.test(o.after) || Number.isNaN(after.getTime())))
        throw new UsageError(`--after takes an RFC 3339 time like 2026-01-31T12:00:00Z, not "${o.after}"`);
      return withInstance(async (instance) => {
        const r = await runOp(instance, 'svc.instance.revoke_key', { keyId, after: after.toISOString() });
        console.log(`revoked: ${String(r.keyId)} for what it signed from ${String(r.revokedAfter)} on`);
      });
    });
}
