// What an area's composer is handed and what it gives back: its part of Services, the background loops
// it runs (a worker's or an `all` process's, never an `api` process's), handles tests and commands reach
// those loops by, and what to close once every loop has stopped. infra/src/compose.ts composes the core
// and walks the list in areas.ts, so a change confined to one area edits that area's file only.
import type { OutboundHttp, RequestSigner } from '@tributary/adapters';
import type { Clock, ReadModels, Services, Signer } from '@tributary/services';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config, ProcessRole } from '../config/config.js';
import type { SequencerLoop } from '../log/sequencer-loop.js';
import type { QueueDepths } from '../metrics/instance-metrics.js';
import type { PgEventStore } from '../postgres/pg-event-store.js';
import type { ReadPool } from '../postgres/read-replicas.js';
import type { ArmableOperatorClaim } from '../runtime/operator-claim.js';
import type { Ed25519Sign } from '../signing/ed25519-signing.js';
import type { KeyRing, SigningKeyPair } from '../signing/index.js';

/** One background loop of an area (docs/operations.md#process-roles). */
export interface BackgroundRunner {
  /** In logs, and the queue's label in the metrics when it runs on BullMQ. */
  readonly name: string;
  start(): Promise<void> | void;
  /** Stops it if it started; nothing otherwise. */
  stop(): Promise<void>;
  /** Its queue's depths once it started on one (read after start). */
  readonly queueDepths?: QueueDepths | undefined;
}

/** What the core composition gives every area. */
export interface AreaContext {
  config: Config;
  pool: pg.Pool;
  /**
   * For the reads that tolerate lag (public documents, published sites): a hot standby's when one is
   * fit to serve, the primary's otherwise. Writes and read-your-writes stay on `pool`.
   */
  readPool: ReadPool;
  logger: Logger;
  clock: Clock;
  role: ProcessRole;
  instanceId: string;
  /** Every key of the instance; the current one signs. */
  ring: KeyRing;
  /** The key file's own key: what never leaves this instance (MCP tokens, preview links) is signed with it. */
  key: SigningKeyPair;
  /** Seals events with the current key. */
  signer: Signer;
  /** Signs bytes with the current key. */
  sign: Ed25519Sign;
  /** Signs requests to peers (RFC 9421) with the current key. */
  requestSigner: RequestSigner;
  store: PgEventStore;
  read: ReadModels;
  /** The one client every call out of this process goes through. */
  outbound: OutboundHttp;
  sequencer: SequencerLoop;
  operatorClaim: ArmableOperatorClaim;
  /** The whole composed Services, for hooks and loops that run after composition (throws before). */
  services(): Services;
}

export interface AreaComposition<S extends Partial<Services>, H extends object = object> {
  services: S;
  /** Its settings in `Services.config` (the OAuth lifetimes, the travellers' times, …). */
  config?: Partial<Services['config']>;
  /** Started in this order by `startRunners()`, after the areas listed before it. */
  runners?: BackgroundRunner[];
  /** Read by tests and commands through the instance (getters: they follow the loops). */
  handles?: H;
  /** After every area's loops stopped, before the log's own loops do. */
  close?(): Promise<void>;
}

export type AreaComposer<
  S extends Partial<Services>,
  H extends object = object,
  C extends Partial<Services['config']> = object,
> = (ctx: AreaContext) => AreaComposition<S, H> & { config?: C };

/** An area composer with its services', handles' and settings' types kept, for the list in areas.ts. */
export const defineArea = <
  S extends Partial<Services>,
  H extends object = object,
  C extends Partial<Services['config']> = object,
>(
  compose: AreaComposer<S, H, C>,
): AreaComposer<S, H, C> => compose;
