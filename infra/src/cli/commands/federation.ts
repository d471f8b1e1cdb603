// `tributary federation`: identity, sync status and equivocations.
import type { Command } from 'commander';
import type { PeerRow } from '../peer-row.js';
import { withInstance, runOp } from '../command-kit.js';

// As services/src/federation/peer-page.ts (the CLI loads the services only once a command runs).
const PEER_PAGE_DEFAULT = 50;
const PEER_PAGE_MAX = 200;
const PEER_STATES = ['reachable', 'failing', 'unknown', 'blocked'];

export function registerFederation(program: Command): void {
  const federation = program.command('federation').description('federation with peer instances');
  federation
    .command('identity')
    .description("what a peer's operator needs to register this instance: id, role, base URL, public key")
    .action(() =>
      withInstance(async (instance) => {
        const info = await instance.services.instance.read.get();
        console.log(`instance id: ${instance.instanceId}`);
        console.log(`role:        ${info?.role ?? instance.config.INSTANCE_ROLE}`);
        console.log(`base URL:    ${info?.baseUrl ?? instance.config.BASE_URL}`);
        console.log(`public key:  ${instance.publicKey}`);
        console.log(`key id:      ${instance.services.signer.keyId}`);
      }),
    );
  federation
    .command('status')
    .description(
      'peers counted by state with the sync lag, then a page of peers: cursors, backlog, last success, last error, next attempt',
    )
    .option('--limit <n>', `peers a page, 1–${PEER_PAGE_MAX}`, String(PEER_PAGE_DEFAULT))
    .option('--after <cursor>', 'the page after this cursor (printed at the end of the previous page)')
    .option('--state <state>', `only peers in this state: ${PEER_STATES.join(', ')}`)
    .option('--json', 'print JSON')
    .action((o: { limit: string; after?: string; state?: string; json?: boolean }) =>
      withInstance(async (instance) => {
        const r = await runOp(instance, 'svc.federation.status', {
          limit: o.limit,
          ...(o.after !== undefined && { after: o.after }),
          ...(o.state !== undefined && { state: o.state }),
        });
        if (o.json) return console.log(JSON.stringify(r, null, 2));
        const summary = r.summary as {
          total: number;
          reachable: number;
          failing: number;
          unknown: number;
          blocked: number;
          lag: { pushBehind: number; pushMaxBehind: number; pullBehind: number; pullMaxBehind: number };
        };
        console.log(
          `peers: ${summary.total} (${summary.reachable} reachable, ${summary.failing} failing, ${summary.unknown} not contacted yet, ${summary.blocked} blocked)`,
        );
        console.log(
          `lag: push ${summary.lag.pushBehind} behind (at most ${summary.lag.pushMaxBehind} sequences), pull ${summary.lag.pullBehind} behind (at most ${summary.lag.pullMaxBehind} sequences)`,
        );
        type Cursor = {
          position: number;
          backlog: number | null;
          peerHead: number | null;
          attempts: number;
          nextAttemptAt: string;
          lastSuccessAt: string | null;
          lastErrorCode: string | null;
          lastError: string | null;
          accepted: number;
          duplicates: number;
          rejected: number;
          lastRejection: string | null;
        };
        const list = (r.peers ?? []) as (PeerRow & {
          push: Cursor | null;
          pull: Cursor | null;
          equivocations: { count: number; lastDetectedAt: string | null };
        })[];
        type Gap = {
          stream: string;
          fromVersion: number;
          toVersion: number;
          state: string;
          lastError: string | null;
        };
        const relay = r.relay as {
          following: { mode: string; origins: string[] };
          origins: {
            origin: string;
            name: string;
            baseUrl: string;
            keys: { keyId: string; source: string; validUntil: string | null }[];
            gaps: { open: number; filled: number; notPublic: number; recent: Gap[] };
          }[];
        };
        if (list.length === 0) console.log(o.state || o.after ? 'no peers on this page' : 'no peers');
        if (relay.origins.length > 0 || relay.following.mode !== 'all')
          console.log(
            `relayed origins (following ${relay.following.mode === 'all' ? 'all' : `${relay.following.mode === 'people' ? 'those its people follow: ' : ''}${relay.following.origins.join(', ')}`}):`,
          );
        for (const o of relay.origins) {
          const keys = o.keys.map(
            (k) => `${k.keyId} (${k.source}${k.validUntil ? `, until ${k.validUntil}` : ''})`,
          );
          console.log(`  ${o.origin}  ${o.name}  ${o.baseUrl}  keys ${keys.join(', ')}`);
          if (o.gaps.open + o.gaps.filled + o.gaps.notPublic > 0)
            console.log(
              `    gaps: ${o.gaps.open} open${o.gaps.open > 0 ? ' (GAP IN CHAIN)' : ''}, ${o.gaps.filled} filled from the origin, ${o.gaps.notPublic} not public`,
            );
          for (const g of o.gaps.recent.filter((x) => x.state === 'open'))
            console.log(
              `    ${g.state === 'open' ? 'GAP' : g.state}: ${g.stream} versions ${g.fromVersion}–${g.toVersion}${g.lastError ? ` (${g.lastError})` : ''}`,
            );
        }
        for (const p of list) {
          console.log(`${p.peerId}  ${p.role}  ${p.baseUrl}${p.blocked ? '  BLOCKED' : ''}`);
          if (p.equivocations.count > 0)
            console.log(
              `  EQUIVOCATED ×${p.equivocations.count}, last ${p.equivocations.lastDetectedAt} (tributary federation equivocations --peer ${p.peerId})`,
            );
          for (const [dir, c] of [
            ['push', p.push],
            ['pull', p.pull],
          ] as const) {
            if (!c) {
              console.log(`  ${dir}: not started`);
              continue;
            }
            const lag =
              dir === 'push'
                ? `${c.backlog ?? 0} behind`
                : c.peerHead === null
                  ? 'peer head unknown'
                  : `${Math.max(0, c.peerHead - c.position)} sequences behind`;
            const state =
              c.attempts > 0
                ? `FAILING ×${c.attempts} (${c.lastErrorCode}: ${c.lastError}), next attempt ${c.nextAttemptAt}`
                : `ok, last success ${c.lastSuccessAt ?? 'never'}`;
            console.log(
              `  ${dir}: at ${c.position}, ${lag}; ${state}; accepted ${c.accepted}, duplicates ${c.duplicates}, rejected ${c.rejected}${c.lastRejection ? ` (last: ${c.lastRejection})` : ''}`,
            );
          }
        }
        const next = r.next as string | null;
        if (next)
          console.log(
            `more peers: tributary federation status --after ${next}${o.limit !== String(PEER_PAGE_DEFAULT) ? ` --limit ${o.limit}` : ''}${o.state ? ` --state ${o.state}` : ''}`,
          );
      }),
    );

  federation
    .command('equivocations')
    .description('evidence that a peer signed two different events at one version of a stream')
    .option('--peer <peerId>', "only this peer's")
    .option('--json', 'print JSON, with both signed envelopes')
    .action((o: { peer?: string; json?: boolean }) =>
      withInstance(async (instance) => {
        type Evidence = {
          seq: number;
          origin: string;
          stream: string;
          streamVersion: number;
          heldEventId: string;
          refusedEventId: string;
          detectedAt: string;
        };
        const all: Evidence[] = [];
        for (let after: number | null = 0; after !== null;) {
          const page = (await runOp(instance, 'svc.federation.equivocations', {
            ...(o.peer && { peerId: o.peer }),
            after,
            limit: 100,
          })) as unknown as { equivocations: Evidence[]; next: number | null };
          all.push(...page.equivocations);
          after = page.next;
        }
        if (o.json) return console.log(JSON.stringify(all, null, 2));
        if (all.length === 0) return console.log('no equivocations');
        console.log('detected at\tpeer\tstream\tversion\timported event\trefused event');
        for (const r of all)
          console.log(
            [r.detectedAt, r.origin, r.stream, r.streamVersion, r.heldEventId, r.refusedEventId].join('\t'),
          );
      }),
    );
}
