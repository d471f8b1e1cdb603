// A catalogue entry: one name per capability (docs/architecture.md#operations). Its name is the MCP tool name, the
// HTTP operation id, the assistant plan-step kind and the log/metric label.
import type { AgentView, InstanceView } from '../ports/read-models.js';
import type { z } from 'zod';
import type { CodeOfKind, NewEvent } from '@tributary/domain';
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
  run(ctx: OperationContext<S>, input: I): Promise<O>;
}

/** Any catalogue entry, whatever its input and output types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, unknown, any>;

/**
 * A catalogue entry on the core alone. An area's operation says which slices it uses, through its area's
 * helper (`defineBuilderOperation`) or as `defineOperation<I, O, CoreServices & BuilderServices>`.
 */
export const defineOperation = <I, O, S extends CoreServices = CoreServices>(
  op: Operation<I, O, S>,
): Operation<I, O, S> => op;
