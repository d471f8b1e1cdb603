// The federation ports, wired once for the composition root.
import { createPeerClient, createUrlGuard, type OutboundHttp, type RequestSigner } from '@tributary/adapters';
import { createFederationReadModels } from '@tributary/projections';
import type { Clock, FederationPorts, Signer } from '@tributary/services';
import type { Pool } from 'pg';
import type { PgEventStore } from '../postgres/pg-event-store.js';
import type { SigningLibraryChoice } from '../signing/ed25519-signing.js';
import { createPeerEnvelopeVerifier } from '../federation/peer-envelope-verifier.js';
import { peerKeyCodec } from '../federation/peer-key-codec.js';
import { createPgFederationStore } from '../federation/pg-federation-store.js';
import { createPgSyncCursors } from '../federation/pg-sync-cursors.js';
import { createOriginManifestSource } from '../federation/origin-manifests.js';
import { startSyncRunner, type SyncRunner } from '../federation/sync-runner.js';
import type { Config } from '../config/config.js';
import { defineArea, type BackgroundRunner } from './area.js';
import { composeFederationSurface } from './compose-federation-surface.js';

export function composeFederation(o: {
  pool: Pool;
  store: PgEventStore;
  clock: Clock;
  signer: Signer;
  /** Signs requests to peers with the instance's current key (and a previous one while it overlaps). */
  requestSigner: RequestSigner;
  /** Which Ed25519 library verifies peers' events (SIGNING_LIBRARY). */
  ed25519Library?: SigningLibraryChoice;
  /** The process's outbound client: its address policy checks peer URLs at registration and on every call. */
  outbound: OutboundHttp;
  onAppended?: () => void;
  /** A peer's signed request verified (after its cursors were brought forward). */
  onPeerSpoke?: (peerId: string) => void;
}): FederationPorts {
  const urls = createUrlGuard(o.outbound);
  const now = () => o.clock.now();
  const cursors = createPgSyncCursors(o.pool);
  return {
    cursors,
    peerSpoke(peerId) {
      cursors
        .peerAnswered(peerId, now())
        .then(() => o.onPeerSpoke?.(peerId))
        .catch(() => undefined); // best effort: the sweep retries on its own schedule anyway
    },
    read: createFederationReadModels(o.pool),
    verifier: createPeerEnvelopeVerifier(o.ed25519Library),
    store: createPgFederationStore(o.pool, o.store, {
      now,
      ...(o.onAppended && { onAppended: o.onAppended }),
    }),
    keys: peerKeyCodec,
    urls,
    manifests: createOriginManifestSource(o.outbound, now),
    client: createPeerClient({
      signer: o.requestSigner,
      now,
      outbound: o.outbound,
    }),
  };
}

/** Whether federation sync runs on BullMQ (else on an in-process timer). */
const syncOnRedis = (config: Config): boolean =>
  config.FEDERATION_QUEUE === 'bullmq' || (config.FEDERATION_QUEUE === 'auto' && !!config.REDIS_URL);

/**
 * Federation and its surface, and background sync (unless FEDERATION_SYNC is off): pushed when local
 * events are sequenced and when a peer speaks, swept on its schedule otherwise.
 */
export const federationArea = defineArea((ctx) => {
  const { config, logger } = ctx;
  let sync: SyncRunner | null = null;
  const federation = composeFederation({
    ...ctx,
    ed25519Library: config.SIGNING_LIBRARY,
    onAppended: ctx.sequencer.poke,
    onPeerSpoke: () => sync?.wake(),
  });
  ctx.sequencer.onSequenced(() => sync?.wake());
  // An API process runs no sync, but the instance does (its workers): /api/federation/status and
  // node-status answer what they run, from the same configuration.
  if (ctx.role === 'api' && config.FEDERATION_SYNC === 'on')
    federation.syncMode = syncOnRedis(config) ? 'bullmq' : 'in-process';
  const runner: BackgroundRunner = {
    name: 'federation-sync',
    async start() {
      const failpoints = config.NODE_ENV === 'test' ? config.TRIBUTARY_FAILPOINTS : [];
      const started = await startSyncRunner({
        services: ctx.services(),
        logger,
        instanceId: ctx.instanceId,
        redisUrl: syncOnRedis(config) ? config.REDIS_URL : undefined,
        sweepMs: config.FEDERATION_SWEEP_MS,
        concurrency: config.FEDERATION_SYNC_CONCURRENCY,
        settings: {
          retryBaseMs: config.FEDERATION_RETRY_BASE_MS,
          pullIntervalMs: config.FEDERATION_PULL_INTERVAL_SECONDS * 1000,
          // A real crash (SIGKILL, no cleanup) between delivery and the cursor's commit.
          ...(failpoints.includes('sync.push.after-delivery') && {
            afterPushDelivered: () => process.kill(process.pid, 'SIGKILL'),
          }),
        },
      });
      sync = started;
      federation.syncMode = started.mode;
      logger.info({ mode: started.mode }, 'federation sync started');
    },
    async stop() {
      const stopping = sync;
      sync = null; // nothing wakes it while it stops
      await stopping?.stop();
    },
    get queueDepths() {
      return sync?.queueDepths;
    },
  };
  return {
    services: {
      federation,
      federationSurface: composeFederationSurface({ ...ctx, origin: ctx.instanceId }),
    },
    runners: config.FEDERATION_SYNC === 'off' ? [] : [runner],
    handles: {
      /** Background federation sync, once started (null in operator commands, or when off). */
      get sync(): SyncRunner | null {
        return sync;
      },
    },
    close: async () => federation.cursors?.close?.(),
  };
});
