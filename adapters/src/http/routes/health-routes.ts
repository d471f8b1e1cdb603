import { Router } from 'express';
import type { ErrorCode } from '../error-codes.js';

export interface Readiness {
  /** Resolves with the reasons the instance is not ready; empty when ready. */
  check(): Promise<string[]>;
}

export function healthRoutes(readiness: Readiness): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
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
