// The command pipeline (docs/architecture.md#pipeline), in one place, as a list. A failed step changes nothing.
// Its numbered steps read in order down the file: `run` (2–5), `commitEvents` (6–10), `executeRecorded`
// (11) and `execute` (12), which call each other the other way round; step 1 is the edge's (adapters).
import {
  controls,
  DomainError,
  fold,
  foldFrom,
  invalid,
  isDomainError,
  notFound,
  unstorablePath,
  type IdempotencyClaim,
  type NewEvent,
} from '@tributary/domain';
import type { AgentView } from '../ports/read-models.js';
import {
  checkIdempotencyKey,
  ClaimTaken,
  claimedCommit,
  claimEvent,
  claimOf,
  drawnIds,
  idempotencyPrincipal,
  keyedCommand,
} from './idempotency.js';
import {
  unavailableFor,
  type CommitResult,
  type KnownStream,
  type Operation,
  type OperationContext,
} from './operation.js';
import type { Principal } from './principal.js';
import {
  appendProvenance,
  outcomeOf,
  provenanceEvent,
  type InvocationFacts,
  type ProvenanceRequest,
} from './provenance.js';
import { sealEvents } from './seal-events.js';
import type { StreamState } from './stream-state-cache.js';
import type { CoreServices } from './services.js';
import { accessDenial, type Surface } from './tool-access.js';

export type { Surface } from './tool-access.js';

interface ExecuteOptions {
  /** Record this invocation in the provenance log (every MCP tool call does). */
  provenance?: ProvenanceRequest;
  /**
   * Events decided alongside the command's own and appended in the same transaction (a peer mutation's
   * receipt): appended even when the command itself decides nothing, never when it fails.
   */
  alongside?: Alongside;
  /**
   * The caller's idempotency key (docs/architecture.md#idempotency): a command that commits records it
   * with its events, and a later call with the same key and input answers the first outcome, writing
   * nothing. Ignored for queries and for principals that are not keyed (anonymous, remote viewer).
   */
  idempotencyKey?: string | undefined;
}

/** One of the command's own events, sealed, as `alongside.decide` sees it (its log position is not known yet). */
export interface SealedEventRef {
  id: string;
  type: string;
  stream: string;
  streamVersion: number;
}

interface Alongside {
  /** Streams of their own: none of them may be one the command writes. */
  streams: readonly string[];
  /**
   * Decided after the command's own events are sealed, so it may name them (`own`: empty for a query or
   * a command that decided nothing); appended with them in one transaction.
   */
  decide: (states: Map<string, unknown>, own: readonly SealedEventRef[]) => NewEvent[];
}

export interface ExecuteResult<O> {
  result: O;
  commit: CommitResult | null;
  actorId: string;
  /** The answer of an earlier call with the same idempotency key: nothing was written this time. */
  replayed?: boolean;
}

/** What `execute` learns about an invocation as it runs, for its provenance entry. */
interface Invocation {
  actorId?: string;
  /** The entry to append with the command's own events; unset when nothing is recorded. */
  entry?: () => NewEvent;
  /** Set once the entry is in the log. */
  recorded: boolean;
}

async function run<I, O>(
  services: CoreServices,
  op: Operation<I, O>,
  rawInput: unknown,
  principal: Principal,
  surface: Surface,
  invocation: Invocation,
  options: ExecuteOptions,
): Promise<ExecuteResult<O>> {
  const { alongside } = options;
  // A malformed idempotency key is refused before anything runs (recorded like any refusal on MCP).
  if (options.idempotencyKey !== undefined) checkIdempotencyKey(options.idempotencyKey);
  // 2. The principal was resolved by the adapter from exactly one credential.
  const now = services.clock.now();
  if (principal.kind === 'anonymous' && !op.public)
    throw accessDenial(op, principal, surface, { instance: { controllers: [] }, now })!;
  // 3. Access. The input is parsed strictly first and refused only after the access check, so a caller
  // without access learns nothing of the schema. Text no column can hold
  // (NUL, an unpaired surrogate) is refused as the schema's refusals are, before any query sees it.
  const unstorable = unstorablePath(rawInput);
  const parsed = unstorable === null ? op.input.safeParse(rawInput ?? {}) : null;
  // The check needs the instance, and the next step the agent asked for: both are read now, in one query.
  const target =
    principal.kind === 'anonymous' || !parsed?.success || op.actsForAgent === false
      ? undefined
      : targetOf(parsed.data);
  const { instance, agent } = await services.instance.read.withAgent(wantedAgent(principal, target));
  if (!instance) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');

  // enabledFor and scopes, from the catalogue entry.
  const denial = accessDenial(op, principal, surface, {
    instance,
    now,
    legacyUnscopedSunset: services.config.legacyUnscopedSunset,
  });
  if (denial) throw denial;

  // Then the refused input, which changes nothing.
  if (unstorable !== null || !parsed)
    throw invalid('input.invalid', 'the input holds text that cannot be stored', {
      issues: [
        { path: unstorable ?? '', message: 'NUL or an unpaired surrogate', code: 'unstorable_characters' },
      ],
    });
  if (!parsed.success)
    throw (
      op.inputRefusal?.(parsed.error.issues, rawInput) ??
      invalid('input.invalid', 'the input does not match the schema', {
        issues: parsed.error.issues.map((i) => ({
          path: i.path.join('.'),
          message: i.message,
          code: i.code,
        })),
      })
    );
  const input = parsed.data;

  // 4. The acting agent: only one the principal controls (an unknown one and someone else's look alike).
  // A public operation (sign-up, sign-in) runs as the instance itself on a visitor's behalf.
  const actor =
    principal.kind === 'anonymous' ? primaryAgent(agent) : resolveActor(principal, instance, target, agent);
  invocation.actorId = actor.agentId;

  // An optional area this instance was composed without: its operations answer the area's code.
  const unavailable = unavailableFor(op, services);
  if (unavailable) throw unavailable;

  // An idempotency key already claimed: the first outcome, nothing written (docs/architecture.md#idempotency).
  const keyedBy =
    options.idempotencyKey !== undefined && op.kind === 'command' ? idempotencyPrincipal(principal) : null;
  const keyed =
    keyedBy === null
      ? undefined
      : keyedCommand(services, {
          principal: keyedBy,
          operation: op.name,
          key: options.idempotencyKey!,
          input,
        });
  const base = { principal, actor, instance, surface };
  if (keyed) {
    const claim = await claimOf(services, keyed);
    if (claim) return replay(services, op, input, base, claim);
  }

  // 5. Run; a command commits at most once, atomically (steps 6–10, in commitEvents below).
  let committed: CommitResult | null = null;
  const drawn = keyed ? drawnIds(services.ids) : undefined;
  const ranAt = services.clock.now();
  const ctx: OperationContext = {
    ...base,
    now: ranAt,
    services: drawn ? { ...services, ids: drawn.ids } : services,
    async commit(streams, decide, options) {
      if (committed) throw new Error(`${op.name} tried to commit twice`);
      drawn?.stop();
      const actorId = options?.actorId ?? actor.agentId;
      const all = alongside ? [...streams, ...alongside.streams] : streams;
      const retries = options?.retries ?? 0;
      for (let attempt = 0; ; attempt++) {
        try {
          committed = await commitEvents(
            services,
            all,
            decide,
            actorId,
            invocation.entry,
            // A retry reads every stream: a known state may be what lost the race.
            attempt === 0 ? options?.known : undefined,
            alongside,
            keyed && drawn ? (own) => claimEvent(keyed, drawn, ranAt, own) : undefined,
          );
          break;
        } catch (e) {
          const conflict = isDomainError(e) && e.code === 'log.stream_conflict';
          if (conflict && keyed && e.details?.stream === keyed.stream) throw new ClaimTaken();
          // Another command won the append: decide again on what the streams hold now.
          if (conflict && attempt < retries) continue;
          throw e;
        }
      }
      if (invocation.entry) invocation.recorded = true;
      return committed;
    },
  };
  let result: O;
  try {
    result = await op.run(ctx, input);
  } catch (e) {
    // A concurrent request with the same key committed first: its outcome is this one's too.
    if (keyed && e instanceof ClaimTaken) {
      const claim = await claimOf(services, keyed);
      if (claim) return replay(services, op, input, base, claim);
    }
    throw e;
  }
  if (alongside && !committed) await ctx.commit([], () => []);
  // The result, with where its events sit in the log.
  return { result, commit: committed, actorId: actor.agentId };
}

/** Load, fold, decide, seal, append: also used by the first-start bootstrap, which has no instance yet. */
export async function commitEvents(
  services: CoreServices,
  streams: readonly string[],
  decide: (states: Map<string, unknown>) => NewEvent[],
  actorId: string,
  /** The invocation's provenance entry (a fresh stream), appended in the same transaction. */
  provenance?: () => NewEvent,
  known?: ReadonlyMap<string, KnownStream>,
  /** Events decided once the command's own are sealed, appended with them (see `Alongside`). */
  alongside?: Alongside,
  /** The idempotency claim, named for the command's own events once sealed; only when there are some. */
  claim?: (own: readonly SealedEventRef[]) => NewEvent,
): Promise<CommitResult> {
  const toRead = known ? streams.filter((s) => !known.has(s)) : streams;
  // 6. Read state. What earlier commands folded is held: read only the events past it
  // (see stream-state-cache.ts).
  const cache = services.streamStates;
  const held = new Map<string, StreamState>();
  for (const stream of toRead) {
    const h = cache?.get(stream);
    if (h) held.set(stream, h);
  }
  const after = new Map([...held].map(([stream, h]) => [stream, h.version]));
  const loaded = toRead.length > 0 ? await services.store.readStreams(toRead, after) : undefined;
  const states = new Map<string, unknown>();
  const versions = new Map<string, number>();
  for (const stream of streams) {
    const given = known?.get(stream);
    if (given) {
      states.set(stream, given.state);
      versions.set(stream, given.version);
      continue;
    }
    const events = loaded?.get(stream) ?? [];
    const from = held.get(stream);
    const state = from ? foldFrom(stream, from.state, events) : fold(stream, events);
    const version = events.length === 0 ? (from?.version ?? 0) : events[events.length - 1]!.streamVersion;
    // A stream with no event yet is not worth holding (and most are claims about to be made).
    if (version > 0) cache?.set(stream, { state, version });
    states.set(stream, state);
    versions.set(stream, version);
  }
  // 7. Decide.
  const decided = decide(states);
  const entry = provenance?.();
  if (entry) versions.set(entry.stream, 0);
  const sealing = {
    signer: services.signer,
    ids: services.ids,
    actorId,
    occurredAt: services.clock.now().toISOString(),
  };
  // 8. Seal and sign.
  let sealed;
  // Appended with the command, but not its own: its provenance entry and its idempotency claim.
  const notOwn = new Set(entry ? [entry.stream] : []);
  if (!alongside && !claim) {
    if (decided.length === 0 && !entry) return { events: [] };
    sealed = await sealEvents(entry ? [...decided, entry] : decided, versions, sealing);
  } else {
    // The command's own events first, so what is decided alongside can name them by id and version.
    const own = decided.length > 0 ? await sealEvents(decided, versions, sealing) : [];
    const refs = own.flatMap((s) =>
      s.envelopes.map((e) => ({
        id: e.envelope.id,
        type: e.envelope.type,
        stream: e.envelope.stream,
        streamVersion: e.envelope.streamVersion,
      })),
    );
    const extra = alongside ? alongside.decide(states, refs) : [];
    const ownStreams = new Set(own.map((s) => s.stream));
    for (const e of extra)
      if (ownStreams.has(e.stream))
        throw new Error(`${e.stream} is written both by the command and alongside it`);
    const claimed = claim && refs.length > 0 ? claim(refs) : undefined;
    if (claimed) {
      notOwn.add(claimed.stream);
      extra.push(claimed);
      versions.set(claimed.stream, 0);
    }
    const rest = entry ? [...extra, entry] : extra;
    if (own.length === 0 && rest.length === 0) return { events: [] };
    sealed = [...own, ...(rest.length > 0 ? await sealEvents(rest, versions, sealing) : [])];
  }
  // 9 and 10. Append at the versions read, with the inline projections in the same transaction.
  let appended;
  try {
    appended = await services.store.append(sealed);
  } catch (e) {
    // The database went away while committing: name the command, so the caller can tell which write
    // may have landed (docs/architecture.md#idempotency).
    if (isDomainError(e) && e.code === 'log.outcome_unknown')
      throw new DomainError(e.code, e.kind, e.message, {
        ...e.details,
        commandId: sealed[0]!.envelopes[0]!.envelope.id,
      });
    throw e;
  }
  const typeById = new Map(
    sealed.flatMap((s) => s.envelopes.map((e) => [e.envelope.id, e.envelope.type] as const)),
  );
  // The result names the command's own events; its provenance entry is the log's business.
  return {
    events: appended.events
      .filter((e) => !notOwn.has(e.stream))
      .map((e) => ({ ...e, type: typeById.get(e.id) ?? '' })),
  };
}

async function executeRecorded<I, O>(
  services: CoreServices,
  op: Operation<I, O>,
  rawInput: unknown,
  principal: Principal,
  surface: Surface,
  options: ExecuteOptions,
): Promise<ExecuteResult<O>> {
  const { provenance } = options;
  if (!provenance) return run(services, op, rawInput, principal, surface, { recorded: false }, options);
  // 11. Provenance, around every step: exactly one entry per invocation, allowed or refused.
  const startedAt = provenance.startedAt ?? performance.now();
  const invocation: Invocation = { recorded: false };
  const facts = (): Omit<InvocationFacts, 'outcome'> => ({
    tool: op.name,
    surface,
    principal,
    actorId: invocation.actorId,
    rawArgs: rawInput,
    durationMs: performance.now() - startedAt,
    requestId: provenance.requestId,
    client: provenance.client,
    plan: provenance.plan,
  });
  invocation.entry = () => provenanceEvent(services, { ...facts(), outcome: 'ok' });
  let out: ExecuteResult<O>;
  try {
    out = await run(services, op, rawInput, principal, surface, invocation, options);
  } catch (e) {
    // A refusal or failure is recorded on its own; the caller still gets the original error.
    if (!invocation.recorded && !(await provenance.didNotHappen?.(e)))
      await appendProvenance(services, { ...facts(), ...outcomeOf(e) });
    throw e;
  }
  if (!invocation.recorded) await appendProvenance(services, { ...facts(), outcome: 'ok' });
  return out;
}

export async function execute<I, O>(
  services: CoreServices,
  op: Operation<I, O>,
  rawInput: unknown,
  principal: Principal,
  surface: Surface,
  options: ExecuteOptions = {},
): Promise<ExecuteResult<O>> {
  // 12. The answer: the result and where its events sit in the log, which the edge turns into REST's or
  // MCP's. Counted once here, every surface alike, with the outcome and code the provenance log would give.
  const metrics = services.metrics;
  if (!metrics) return executeRecorded(services, op, rawInput, principal, surface, options);
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const out = await executeRecorded(services, op, rawInput, principal, surface, options);
    metrics.operation(op.name, op.kind, surface, 'ok', '', seconds());
    return out;
  } catch (e) {
    const { outcome, errorCode } = outcomeOf(e);
    metrics.operation(
      op.name,
      op.kind,
      surface,
      outcome === 'ok' ? 'error' : outcome,
      errorCode,
      seconds(),
      e,
    );
    throw e;
  }
}

/**
 * Answers a keyed command again from its claim: the operation runs with the first run's clock and ids,
 * and its commit answers the events already in the log instead of deciding (docs/architecture.md#idempotency).
 */
async function replay<I, O>(
  services: CoreServices,
  op: Operation<I, O>,
  input: I,
  base: Pick<OperationContext, 'principal' | 'actor' | 'instance' | 'surface'>,
  claim: IdempotencyClaim,
): Promise<ExecuteResult<O>> {
  const commit = await claimedCommit(services, claim);
  const drawn = drawnIds(services.ids, claim.ids);
  drawn.stop();
  let answered = false;
  const ctx: OperationContext = {
    ...base,
    now: new Date(claim.now),
    services: { ...services, ids: drawn.ids },
    async commit() {
      if (answered) throw new Error(`${op.name} tried to commit twice`);
      answered = true;
      return commit;
    },
  };
  try {
    const result = await op.run(ctx, input);
    return { result, commit, actorId: base.actor.agentId, replayed: true };
  } catch {
    // The first commit stands; when the operation cannot build its answer again (what it read before
    // committing has moved on since), the answer names the command rather than an error for a write
    // that landed.
    return {
      result: { commandId: claim.commandId } as O,
      commit,
      actorId: base.actor.agentId,
      replayed: true,
    };
  }
}

function targetOf(input: unknown): string | undefined {
  if (input && typeof input === 'object' && 'targetAgentId' in input) {
    const t = (input as { targetAgentId?: unknown }).targetAgentId;
    return typeof t === 'string' ? t : undefined;
  }
  return undefined;
}

/**
 * The agent a principal acts as: the target it names, else the persona its token is bound to, else its
 * own agent — null for the instance's primary agent (anonymous visitors, and the instance's own
 * static and system principals).
 */
function wantedAgent(principal: Principal, target: string | undefined): string | null {
  if (principal.kind === 'anonymous') return null;
  if (principal.kind === 'static' || principal.kind === 'system') return target ?? null;
  const bound = principal.kind === 'token' ? principal.boundAgentId : undefined;
  return target ?? bound ?? principal.agentId;
}

function resolveActor(
  principal: Exclude<Principal, { kind: 'anonymous' }>,
  instance: { primaryAgentId: string; controllers: string[] },
  target: string | undefined,
  agent: AgentView | null,
): AgentView {
  const selfAgentId =
    principal.kind === 'static' || principal.kind === 'system' ? instance.primaryAgentId : principal.agentId;
  const bound = principal.kind === 'token' ? principal.boundAgentId : undefined;
  if (bound && target && target !== bound)
    throw notFound('agent.not_found', 'no such agent among those this credential acts for');
  const accountId = 'accountId' in principal ? principal.accountId : undefined;
  const isController =
    principal.kind === 'static' ||
    principal.kind === 'system' ||
    (!!accountId && instance.controllers.includes(accountId));
  if (
    !agent ||
    !controls(
      { selfAgentId, isInstanceController: isController, primaryAgentId: instance.primaryAgentId },
      {
        agentId: agent.agentId,
        kind: agent.kind,
        ownerAgentId: agent.ownerAgentId,
        placeholder: agent.placeholder,
      },
    )
  )
    throw notFound('agent.not_found', 'no such agent among those you control');
  return agent;
}

function primaryAgent(agent: AgentView | null): AgentView {
  if (!agent) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');
  return agent;
}
