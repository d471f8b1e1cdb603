// Operations as specifications, on the real pipeline (services/src/pipeline/execute.ts) over the
// in-memory log: given these events, when this input as this principal, then these events or this
// error code.
//
//   const t = await unitInstance();
//   const ada = await t.signUp('ada');
//   await t.given(ada.agentId, [{ stream: `agent-${ada.agentId}`, type: 'agent.profile_updated', data: { bio: 'b' } }]);
//   const r = await t.when('svc.agent.create_persona', { name: 'Cook' }, ada.principal);
//   r.thenEvents([{ type: 'agent.created', data: { kind: 'persona', name: 'Cook' } }]);
//   (await t.when(...)).thenError('input.invalid');
import { isDomainError, type InstanceRole, type NewEvent } from '@tributary/domain';
import { publicKeyBase64url } from '@tributary/infra';
import {
  catalogueOperations,
  commitEvents,
  execute,
  initializeInstance,
  type Principal,
  type StoredEvent,
  type Surface,
} from '@tributary/services';
import assert from 'node:assert/strict';
import { memoryServices, UNIT_BASE_URL, type MemoryServices } from './memory-services.js';

export interface UnitAccount {
  accountId: string;
  agentId: string;
  /** A signed-in session of this account. */
  principal: Extract<Principal, { kind: 'session' }>;
}

export interface ExpectedEvent {
  type: string;
  stream?: string;
  /** Members the event's data must have (others may be there too). */
  data?: Record<string, unknown>;
}

export interface Outcome<O = unknown> {
  /** The operation's result (throws if it failed). */
  readonly result: O;
  /** The error it failed with, if it did. */
  readonly error: unknown;
  /** The events the operation appended, in order, without provenance entries. */
  readonly events: readonly StoredEvent[];
  /** It succeeded and appended exactly these events, in this order. */
  thenEvents(expected: readonly ExpectedEvent[]): O;
  /** It failed with this DomainError code and appended nothing. */
  thenError(code: string): void;
  /**
   * It failed with this DomainError code after appending exactly these events: a refusal that is itself
   * recorded (a wrong PKCE verifier counted, a reused OAuth grant revoked).
   */
  thenErrorAfter(code: string, expected: readonly ExpectedEvent[]): void;
}

export interface UnitInstance extends MemoryServices {
  /** The instance's primary agent. */
  primaryAgentId: string;
  /** Signs up through svc.auth.sign_up (the first account is the operator). */
  signUp(handle: string, password?: string): Promise<UnitAccount>;
  /** Appends these events through the pipeline's commit, sealed and signed, acted by `actorId`. */
  given(actorId: string, events: NewEvent[]): Promise<void>;
  /**
   * Runs the catalogue operation `name` through the pipeline, on `surface` (default http); `recorded`
   * asks for its provenance entry, as every MCP tool call has.
   */
  when<O = unknown>(
    name: string,
    input: unknown,
    principal: Principal,
    options?: WhenOptions,
  ): Promise<Outcome<O>>;
}

export interface WhenOptions {
  surface?: Surface;
  recorded?: boolean;
  /** The caller's idempotency key (an `Idempotency-Key` header on HTTP and MCP). */
  idempotencyKey?: string;
}

export const UNIT_PASSWORD = 'correct horse battery staple';

export async function unitInstance(options: { role?: InstanceRole } = {}): Promise<UnitInstance> {
  const memory = memoryServices();
  const { services, store, key } = memory;
  await initializeInstance(services, {
    role: options.role ?? 'global',
    name: 'Unit',
    baseUrl: UNIT_BASE_URL,
    publicKey: publicKeyBase64url(key.publicKey),
  });
  const instance = await services.instance.read.get();
  assert.ok(instance, 'the instance is initialized');

  const when = async <O>(
    name: string,
    input: unknown,
    principal: Principal,
    options: WhenOptions = {},
  ): Promise<Outcome<O>> => {
    // The whole catalogue, own-endpoint operations (OAuth's, with the RFCs' payloads) included.
    const op = catalogueOperations().find((o) => o.name === name);
    if (!op) throw new Error(`no operation ${name} in the catalogue`);
    const before = store.all().length;
    let result: O | undefined;
    let error: unknown;
    let failed = false;
    try {
      result = (
        await execute(services, op, input, principal, options.surface ?? 'http', {
          ...(options.recorded && { provenance: {} }),
          idempotencyKey: options.idempotencyKey,
        })
      ).result as O;
    } catch (e) {
      failed = true;
      error = e;
    }
    const events = store
      .all()
      .slice(before)
      .filter((e) => e.type !== 'provenance.recorded');
    return {
      get result() {
        if (failed) throw error;
        return result as O;
      },
      error,
      events,
      thenEvents(expected) {
        if (failed) throw error;
        assertEvents(name, events, expected);
        return result as O;
      },
      thenError(code) {
        assertFailedWith(name, failed, error, code);
        assert.deepEqual(events, [], `${name} failed with ${code} and should have written nothing`);
      },
      thenErrorAfter(code, expected) {
        assertFailedWith(name, failed, error, code);
        assertEvents(name, events, expected);
      },
    };
  };

  return {
    ...memory,
    primaryAgentId: instance.primaryAgentId,
    async signUp(handle, password = UNIT_PASSWORD) {
      const answer = (
        await when<{ accountId: string; agentId: string; session: { sessionId: string } }>(
          'svc.auth.sign_up',
          { handle, password },
          { kind: 'anonymous' },
        )
      ).result;
      return {
        accountId: answer.accountId,
        agentId: answer.agentId,
        principal: {
          kind: 'session',
          sessionId: answer.session.sessionId,
          accountId: answer.accountId,
          agentId: answer.agentId,
        },
      };
    },
    async given(actorId, events) {
      const streams = [...new Set(events.map((e) => e.stream))];
      await commitEvents(services, streams, () => events, actorId);
    },
    when,
  };
}

function assertEvents(name: string, events: readonly StoredEvent[], expected: readonly ExpectedEvent[]) {
  assert.deepEqual(
    events.map((e) => e.type),
    expected.map((e) => e.type),
    `${name} appended these event types`,
  );
  expected.forEach((x, i) => {
    const e = events[i]!;
    if (x.stream !== undefined) assert.equal(e.stream, x.stream, `${x.type}: its stream`);
    for (const [k, v] of Object.entries(x.data ?? {})) assert.deepEqual(e.data[k], v, `${x.type}: data.${k}`);
  });
}

function assertFailedWith(name: string, failed: boolean, error: unknown, code: string) {
  assert.ok(failed, `${name} should have failed with ${code}, but succeeded`);
  assert.ok(isDomainError(error), `${name} failed with a non-domain error: ${String(error)}`);
  assert.equal(error.code, code, `${name}: ${error.message}`);
}
