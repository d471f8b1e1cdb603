/**
 * What the pipeline reports about each invocation, for the operator's metrics (docs/operations.md#metrics).
 * infra turns it into Prometheus series; services never sees the metrics library.
 */
export interface OperationMetrics {
  /**
   * One finished invocation: `outcome` as the provenance log has it (`ok`, `denied`, `error`), `code` the
   * error's stable code (`''` when ok; `server.internal` for an unexpected failure), `seconds` end to end.
   * `error` is what it failed with, so the metrics can name what the edge answered for a failure that is
   * not a domain error (an unreachable database is 503 `service.unavailable`, not `server.internal`).
   */
  operation(
    name: string,
    kind: string,
    surface: string,
    outcome: 'ok' | 'denied' | 'error',
    code: string,
    seconds: number,
    error?: unknown,
  ): void;
  /**
   * One batch of a peer's events imported: `via` a push it sent us or a pull of its feed; counted by
   * result, so duplicates (the work a hop did twice) show.
   */
  imported?(via: 'push' | 'pull', counts: { accepted: number; duplicates: number; rejected: number }): void;
  /** A peer pushed a batch beginning before our pull cursor (a redelivery): answered, nothing imported. */
  pushBehindCursor?(): void;
}
