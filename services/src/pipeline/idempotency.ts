// Writes sent with an idempotency key (docs/architecture.md#idempotency). The claim of (principal,
// operation, key) rides in the command's own append, so it is in the log exactly when the command's
// events are. A retry that finds it writes nothing and runs the operation again as a replay: the ids the
// first run drew before committing and its clock are given back, and its commit answers the events
// already in the log instead of deciding anew — so the answer is the first one, whether the first
// answer was delivered, lost with the connection, or never sent because the database went away.
import {
  domainError,
  invalid,
  idempotencyStream,
  type IdempotencyClaim,
  type NewEvent,
} from '@tributary/domain';
import type { Ids } from '../ports/runtime.js';
import type { CommitResult } from './operation.js';
import type { Principal } from './principal.js';
import type { CoreServices } from './services.js';

/** The longest idempotency key taken. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** A key is 1–255 printable ASCII characters; anything else is refused, never silently dropped. */
export function checkIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key))
    throw invalid(
      'request.idempotency_key_invalid',
      `an idempotency key is 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`,
    );
}

/** Who a key belongs to; null for a principal whose writes are never keyed (anonymous, remote viewer). */
export function idempotencyPrincipal(p: Principal): string | null {
  switch (p.kind) {
    // A person's session and tokens share their keys: a retry may come with another credential of theirs.
    case 'session':
    case 'token':
      return `account:${p.accountId}`;
    case 'peer':
      return `peer:${p.peerId}`;
    case 'static':
    case 'system':
      return p.kind;
    default:
      return null;
  }
}

/** JSON with object keys sorted, so the same input hashes the same whatever order it was sent in. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What `execute` holds for one keyed command. */
export interface KeyedCommand {
  principal: string;
  operation: string;
  key: string;
  stream: string;
  requestHash: string;
}

export function keyedCommand(
  services: CoreServices,
  o: { principal: string; operation: string; key: string; input: unknown },
): KeyedCommand {
  const digest = services.ids.sha256(`${o.principal}\n${o.operation}\n${o.key}`);
  return {
    principal: o.principal,
    operation: o.operation,
    key: o.key,
    stream: idempotencyStream(digest),
    requestHash: services.ids.sha256(canonicalJson(o.input)),
  };
}

/** The claim already made with this key, if any; another input under the same key is refused. */
export async function claimOf(services: CoreServices, keyed: KeyedCommand): Promise<IdempotencyClaim | null> {
  const events = await services.store.readStream(keyed.stream);
  const claimed = events.find((e) => e.type === 'idempotency.claimed');
  if (!claimed) return null;
  const claim = claimed.data as IdempotencyClaim;
  if (claim.requestHash !== keyed.requestHash)
    throw domainError(
      'request.idempotency_key_reused',
      'unprocessable',
      'this Idempotency-Key was used for another request to this operation',
    );
  return claim;
}

/** The claim event, appended with the command's own events (`own`: their ids, as sealed). */
export function claimEvent(
  keyed: KeyedCommand,
  drawn: DrawnIds,
  now: Date,
  own: readonly { id: string; type: string; stream: string; streamVersion: number }[],
): NewEvent {
  const data: IdempotencyClaim = {
    principal: keyed.principal,
    operation: keyed.operation,
    key: keyed.key,
    requestHash: keyed.requestHash,
    commandId: own[0]!.id,
    now: now.toISOString(),
    ids: { entityId: [...drawn.values.entityId], eventId: [...drawn.values.eventId] },
    events: own.map(({ id, type, stream, streamVersion }) => ({ id, type, stream, streamVersion })),
  };
  return { stream: keyed.stream, type: 'idempotency.claimed', data };
}

/** The first commit's events as the log holds them, with their positions. */
export async function claimedCommit(services: CoreServices, claim: IdempotencyClaim): Promise<CommitResult> {
  const from = new Map<string, number>();
  for (const e of claim.events)
    from.set(e.stream, Math.min(from.get(e.stream) ?? Infinity, e.streamVersion - 1));
  const read = await services.store.readStreams([...from.keys()], from);
  const position = new Map<string, number>();
  for (const events of read.values()) for (const e of events) position.set(e.envelope.id, e.position);
  return { events: claim.events.map((e) => ({ ...e, position: position.get(e.id) ?? 0 })) };
}

/**
 * The ids an operation draws before it commits (entity and event ids; never secrets, which are not kept):
 * recorded on a first run, given back in the same order on a replay (fresh ones once those run out).
 */
export interface DrawnIds {
  ids: Ids;
  values: { entityId: string[]; eventId: string[] };
  /** Stop recording: what is drawn from now on is the commit's own (envelopes) or comes after it. */
  stop(): void;
}

export function drawnIds(ids: Ids, replay?: IdempotencyClaim['ids']): DrawnIds {
  const values = { entityId: [] as string[], eventId: [] as string[] };
  const given = { entityId: [...(replay?.entityId ?? [])], eventId: [...(replay?.eventId ?? [])] };
  let recording = true;
  const draw = (kind: 'entityId' | 'eventId') => () => {
    const v = given[kind].shift() ?? ids[kind]();
    if (recording) values[kind].push(v);
    return v;
  };
  const wrapped: Ids = {
    eventId: draw('eventId'),
    entityId: draw('entityId'),
    nonce: () => ids.nonce(),
    secret: (bytes) => ids.secret(bytes),
    sha256: (value) => ids.sha256(value),
  };
  return {
    ids: wrapped,
    values,
    stop() {
      recording = false;
    },
  };
}

/** Thrown inside a commit whose claim lost to a concurrent request with the same key. */
export class ClaimTaken extends Error {
  constructor() {
    super('a concurrent request with the same idempotency key committed first');
  }
}
