import { Router } from 'express';
import type { ErrorCode } from '../error-codes.js';
import { problemResponse as problem, publicSecurity } from '../openapi-parts.js';

export interface Readiness {
  /** Resolves with the reasons the instance is not ready; empty when ready. */
  check(): Promise<string[]>;
}

export interface Liveness {
  /** What keeps the process from working by itself (the embedded database down); empty when live. */
  problems(): string[];
}

export function healthRoutes(readiness: Readiness, liveness?: Liveness): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    const problems = liveness?.problems() ?? [];
    if (problems.length === 0) return res.json({ status: 'ok' });
    res
      .status(503)
      .type('application/problem+json')
      .json({
        type: 'urn:tributary:problem:server.unhealthy',
        title: 'Not healthy',
        status: 503,
        code: 'server.unhealthy' satisfies ErrorCode,
        problems,
      });
  });
  r.get('/readyz', async (_req, res) => {
    const problems = await readiness.check().catch((e: Error) => [e.message]);
    if (problems.length === 0) return res.json({ status: 'ready' });
    res
      .status(503)
      .type('application/problem+json')
      .json({
        type: 'urn:tributary:problem:server.not_ready',
        title: 'Not ready',
        status: 503,
        code: 'server.not_ready' satisfies ErrorCode,
        problems,
      });
  });
  return r;
}

/** The OpenAPI paths of these routes. */
export function healthPaths(): Record<string, unknown> {
  return {
    '/healthz': {
      get: {
        operationId: 'health',
        security: publicSecurity,
        summary: 'Liveness: the process is up and its embedded database running',
        responses: {
          '200': { description: 'The process is up' },
          '503': { ...problem, description: 'The embedded PostgreSQL is not running (being restarted)' },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'ready',
        security: publicSecurity,
        summary: 'Readiness: the database is reachable and migrations are applied',
        responses: { '200': { description: 'Database reachable, migrations applied' }, '503': problem },
      },
    },
  };
}
