// The ports the pipeline runs on and every operation may use (docs/architecture.md#layers). It names no
// area: each area declares its own slice in its ports (`<Area>Services`), and the whole (`Services`, at
// the top of services/) is the core with every slice.
import type { EventStore } from '../ports/event-store.js';
import type { OperationMetrics } from '../ports/metrics.js';
import type { InstanceReadModels } from '../ports/read-models.js';
import type { Clock, Ids } from '../ports/runtime.js';
import type { Signer } from '../ports/signer.js';
import type { StreamStateCache } from './stream-state-cache.js';

/** The configuration the pipeline and any operation read; an area's own settings sit in its slice. */
export interface CoreConfig {
  /** When the `svc.legacy.unscoped` wildcard stops being honoured. */
  legacyUnscopedSunset?: Date | undefined;
  sessionTtlSeconds: number;
  /** Every scope a token can usefully carry here (`supportedScopes()`): the bound of every OAuth grant. */
  scopesSupported: readonly string[];
}

/** The log's own ports, the instance read and the core configuration: what `execute` needs. */
export interface CoreServices {
  store: EventStore;
  signer: Signer;
  clock: Clock;
  ids: Ids;
  /**
   * Stream states folded by earlier commands, so a command reads only what its streams gained since;
   * absent, every command reads its streams whole.
   */
  streamStates?: StreamStateCache | undefined;
  /** The instance itself; every command reads it (and its acting agent) first. */
  instance: { read: InstanceReadModels };
  /** Told about every finished invocation (docs/operations.md#metrics); absent, nothing is counted. */
  metrics?: OperationMetrics | undefined;
  config: CoreConfig;
}
