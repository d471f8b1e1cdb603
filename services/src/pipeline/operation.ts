// A catalogue entry: one name per capability (docs/architecture.md#operations). Its name is the MCP tool name, the
// HTTP operation id, the assistant plan-step kind and the log/metric label.
import type { AgentView, InstanceView } from '../ports/read-models.js';
import type { z } from 'zod';
import { DomainError, type CodeOfKind, type NewEvent } from '@tributary/domain';
import type { Principal, Surface } from './principal.js';
import type { CoreServices } from './services.js';

type EnabledFor = 'session' | 'token';

export interface CommitResult {
  events: { id: string; type: string; stream: string; streamVersion: number; position: number }[];
}

export interface OperationContext<S extends CoreServices = CoreServices> {
  principal: Principal;
  /** The agent acted for, already checked against what the principal controls. */
  actor: AgentView;
  instance: InstanceView;
  now: Date;
  /** The core, and the slices of the areas the operation declares (`CoreServices & BuilderServices`). */
  services: S;
  /** Where the call came in (`http`, `mcp`, `assistant`, …). */
  surface: Surface;
  /**
   * Steps 6–10 of the pipeline: load and fold the named streams, decide, sign, append with the
   * expected versions (inline projections and provenance in the same transaction).
   */
  commit(
    streams: readonly string[],
    decide: (states: Map<string, unknown>) => NewEvent[],
    options?: CommitOptions,
  ): Promise<CommitResult>;
}

/** A stream's state as the caller already holds it (from a read model, or a stream known to be new). */
export interface KnownStream {
  state: unknown;
  /** The stream version that state was folded at: the append fails if the stream has moved since. */
  version: number;
}

interface CommitOptions {
  actorId?: string;
  /**
   * Streams not to read: their state and version are given. Still checked at append (optimistic
   * concurrency), so a stale read model can only cost a conflict, never a lost write.
   */
  known?: ReadonlyMap<string, KnownStream>;
  /**
   * How often to read and decide again when a concurrent command won the append on one of the streams
   * (`log.stream_conflict`), so the decider sees the winner; 0 (the default) answers the conflict.
   */
  retries?: number;
}

/**
 * The slices an operation cannot run without, for an area an instance may be composed without: where one
 * is absent the pipeline answers the area's own unavailable code before the operation runs.
 */
export interface Requirement<K extends string = string> {
  /** Keys of the services that must be present (`payments`, `federation`, …). */
  slices: readonly K[];
  code: CodeOfKind<'unavailable'>;
  message: string;
}

export interface Operation<I = unknown, O = unknown, S extends CoreServices = CoreServices> {
  name: string;
  title: string;
  description: string;
  kind: 'command' | 'query';
  input: z.ZodType<I>;
  output?: z.ZodType<O>;
  /** Scopes a token needs; a session holds every scope over the agents it controls. */
  scopes: readonly string[];
  /** Which credentials may call it as an MCP tool; empty means it is not an MCP tool. */
  enabledFor: readonly EnabledFor[];
  /** Callable without a principal (sign-up, sign-in); runs as the instance's primary agent. */
  public?: boolean;
  /** Only the instance's controllers (operators) may run it. */
  controllerOnly?: boolean;
  /**
   * A remote viewer (the `svc_remote_viewer` credential) may run it: only queries may say so. Every
   * other operation refuses a remote viewer with `auth.remote_viewer_not_allowed` (or `remoteViewerRefusal`).
   */
  remoteViewer?: 'read';
  /** The code a remote viewer is refused with instead of `auth.remote_viewer_not_allowed`. */
  remoteViewerRefusal?: CodeOfKind<'forbidden'>;
  /** When false the operation ignores `targetAgentId` and acts as the principal's own agent. */
  actsForAgent?: boolean;
  /**
   * Reached only at its own endpoint (OAuth's, with OAuth's request and error formats): never by name at
   * /api/ops, as a tool, from the CLI, or in the OpenAPI operation list.
   */
  ownEndpoint?: boolean;
  /** Set by an optional area's define function (`areaOperations(paymentsComposed)`), never by hand. */
  requires?: Requirement;
  /**
   * The operation's own refusal of an input its schema refused, when the issues are of a kind it names
   * in words of its own (save_draft: builder.link_invalid for links alone); undefined leaves the
   * pipeline's 400 input.invalid with the issues. Asked only after the access check, like that refusal.
   */
  inputRefusal?: (issues: readonly z.core.$ZodIssue[], input: unknown) => DomainError | undefined;
  run(ctx: OperationContext<S>, input: I): Promise<O>;
}

/** Any catalogue entry, whatever its input and output types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, unknown, any>;

/**
 * A catalogue entry on the core alone. An area's operation says which slices it uses, through its area's
 * define function (`defineBuilderOperation`, made by `areaOperations`) or as
 * `defineOperation<I, O, CoreServices & BuilderServices>`.
 */
export const defineOperation = <I, O, S extends CoreServices = CoreServices>(
  op: Operation<I, O, S>,
): Operation<I, O, S> => op;

/**
 * The define function of an area's catalogue entries (`services/src/<area>/<area>-operation.ts`): each runs
 * on `S`, the core and the slices the area uses. With a requirement the entries belong to an optional
 * area: they run only where its slices are composed, so `S` types them present and no operation checks
 * for them itself; elsewhere the pipeline answers the requirement's unavailable code before they run.
 */
export function areaOperations<S extends CoreServices>(
  requires?: Requirement<keyof S & string>,
): <I, O>(op: Operation<I, O, S>) => Operation<I, O, S> {
  return requires ? (op) => ({ ...op, requires }) : defineOperation;
}

/** The requirement's unavailable error where the services lack one of its slices, else null. */
export function unavailableFor(op: Pick<Operation, 'requires'>, services: CoreServices): DomainError | null {
  const r = op.requires;
  if (!r) return null;
  const present = services as unknown as Record<string, unknown>;
  return r.slices.every((slice) => present[slice] !== undefined)
    ? null
    : new DomainError(r.code, 'unavailable', r.message);
}

/**
 * The services with the requirement's slices typed present, or its unavailable error: the same check
 * for a route or runner outside the catalogue that uses an optional area directly.
 */
export function composedFor<S extends CoreServices, K extends string>(
  services: S,
  requirement: Requirement<K>,
): S & { [P in K & keyof S]-?: NonNullable<S[P]> } {
  const unavailable = unavailableFor({ requires: requirement }, services);
  if (unavailable) throw unavailable;
  return services as S & { [P in K & keyof S]-?: NonNullable<S[P]> };
}
