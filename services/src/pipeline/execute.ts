// The command pipeline (ARCHITECTURE §5), in one place, as a list. A failed step changes nothing.
import {
  controls,
  DomainError,
  fold,
  forbidden,
  invalid,
  missingScopes,
  isLegacyExpired,
  notFound,
  unauthenticated,
  type NewEvent,
} from '@tributary/domain';
import type { AgentView } from '../ports/read-models.js';
import type { CommitResult, Operation, OperationContext } from './operation.js';
import { enabledForKind, type Principal } from './principal.js';
import { sealEvents } from './seal-events.js';
import type { Services } from './services.js';

export type Surface = 'http' | 'mcp' | 'cli' | 'system';

export interface ExecuteResult<O> {
  result: O;
  commit: CommitResult | null;
  actorId: string;
}

export async function execute<I, O>(
  services: Services,
  op: Operation<I, O>,
  rawInput: unknown,
  principal: Principal,
  surface: Surface,
): Promise<ExecuteResult<O>> {
  // 1. The principal was resolved by the adapter from exactly one credential.
  if (principal.kind === 'anonymous' && !op.public)
    throw unauthenticated('auth.required', 'sign in or present a token');
  const instance = await services.read.instance();
  if (!instance) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');

  // 3. enabledFor and scopes, from the catalogue entry.
  const credential = enabledForKind(principal);
  if (surface === 'mcp' && (!credential || !op.enabledFor.includes(credential)))
    throw forbidden('auth.tool_not_enabled', `${op.name} is not available to this credential`, {
      tool: op.name,
      enabledFor: op.enabledFor,
    });
  if (principal.kind === 'token' || principal.kind === 'static') {
    const grant = {
      scopes: principal.scopes,
      legacySunset: services.config.legacyUnscopedSunset,
      now: services.clock.now(),
    };
    if (isLegacyExpired(grant) && principal.scopes.length === 1)
      throw forbidden('auth.legacy_unscoped_expired', 'the legacy unscoped credential is past its sunset');
    const missing = missingScopes(op.scopes, grant);
    if (missing.length > 0)
      throw forbidden('auth.insufficient_scope', `missing scope ${missing.join(' ')}`, {
        missing,
        tool: op.name,
      });
  }
  if (op.controllerOnly && principal.kind !== 'system') {
    const accountId = 'accountId' in principal ? principal.accountId : undefined;
    if (!accountId || !instance.controllers.includes(accountId))
      throw forbidden('auth.controller_only', 'only the instance operator may do this');
  }

  // 4. Parse the input strictly.
  const parsed = op.input.safeParse(rawInput ?? {});
  if (!parsed.success)
    throw invalid('input.invalid', 'the input does not match the schema', {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message, code: i.code })),
    });
  const input = parsed.data;

  // 2. The acting agent: only one the principal controls (an unknown one and someone else's look alike).
  // A public operation (sign-up, sign-in) runs as the instance itself on a visitor's behalf.
  const actor =
    principal.kind === 'anonymous'
      ? await primaryAgent(services, instance.primaryAgentId)
      : await resolveActor(
          services,
          principal,
          instance,
          op.actsForAgent === false ? undefined : targetOf(input),
        );

  // 5–7. Run; a command commits at most once, atomically.
  let committed: CommitResult | null = null;
  const ctx: OperationContext = {
    principal,
    actor,
    instance,
    now: services.clock.now(),
    services,
    async commit(streams, decide, options) {
      if (committed) throw new Error(`${op.name} tried to commit twice`);
      committed = await commitEvents(services, streams, decide, options?.actorId ?? actor.agentId);
      return committed;
    },
  };
  const result = await op.run(ctx, input);
  // 8. The result, with where its events sit in the log.
  return { result, commit: committed, actorId: actor.agentId };
}

function targetOf(input: unknown): string | undefined {
  if (input && typeof input === 'object' && 'targetAgentId' in input) {
    const t = (input as { targetAgentId?: unknown }).targetAgentId;
    return typeof t === 'string' ? t : undefined;
  }
  return undefined;
}

async function resolveActor(
  services: Services,
  principal: Exclude<Principal, { kind: 'anonymous' }>,
  instance: { primaryAgentId: string; controllers: string[] },
  target: string | undefined,
): Promise<AgentView> {
  const selfAgentId =
    principal.kind === 'static' || principal.kind === 'system' ? instance.primaryAgentId : principal.agentId;
  const bound = principal.kind === 'token' ? principal.boundAgentId : undefined;
  if (bound && target && target !== bound)
    throw notFound('agent.not_found', 'no such agent among those this credential acts for');
  const wanted = target ?? bound ?? selfAgentId;
  const agent = await services.read.agent(wanted);
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

async function primaryAgent(services: Services, agentId: string): Promise<AgentView> {
  const agent = await services.read.agent(agentId);
  if (!agent) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');
  return agent;
}

/** Load, fold, decide, seal, append: also used by the first-start bootstrap, which has no instance yet. */
export async function commitEvents(
  services: Services,
  streams: readonly string[],
  decide: (states: Map<string, unknown>) => NewEvent[],
  actorId: string,
): Promise<CommitResult> {
  const loaded = await services.store.readStreams(streams);
  const states = new Map<string, unknown>();
  const versions = new Map<string, number>();
  for (const stream of streams) {
    const events = loaded.get(stream) ?? [];
    states.set(stream, fold(stream, events));
    versions.set(stream, events.length === 0 ? 0 : events[events.length - 1]!.streamVersion);
  }
  const decided = decide(states);
  if (decided.length === 0) return { events: [] };
  const sealed = sealEvents(decided, versions, {
    signer: services.signer,
    ids: services.ids,
    actorId,
    occurredAt: services.clock.now().toISOString(),
  });
  const appended = await services.store.append(sealed);
  const typeById = new Map(
    sealed.flatMap((s) => s.envelopes.map((e) => [e.envelope.id, e.envelope.type] as const)),
  );
  return { events: appended.events.map((e) => ({ ...e, type: typeById.get(e.id) ?? '' })) };
}
