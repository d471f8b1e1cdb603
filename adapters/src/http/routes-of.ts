// The routes an Express app has registered, read from its router (mounted routers included): the one
// source for the 405 answer's `Allow` and for the test that the OpenAPI document lists every route.
import type { Express } from 'express';

export interface RegisteredRoute {
  /** The Express path, e.g. `/api/federation/registry/:agentId`. */
  path: string;
  /** Upper-case methods with a handler of their own (`.all` handlers are middleware, not methods). */
  methods: string[];
}

interface LayerLike {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
  rawPath?: string | string[];
}

export function registeredRoutes(app: Express): RegisteredRoute[] {
  const byPath = new Map<string, Set<string>>();
  const walk = (stack: LayerLike[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = ([] as string[]).concat(layer.route.path);
        const methods = Object.keys(layer.route.methods)
          .filter((m) => m !== '_all')
          .map((m) => m.toUpperCase());
        for (const p of paths) {
          const full = join(prefix, p);
          const set = byPath.get(full) ?? new Set<string>();
          for (const m of methods) set.add(m);
          byPath.set(full, set);
        }
      } else if (layer.handle?.stack) {
        // A mounted router: `app.use('/api/federation', router)` has rawPath '/api/federation'.
        const mounts = ([] as string[]).concat(layer.rawPath ?? '/');
        for (const m of mounts) walk(layer.handle.stack, join(prefix, m));
      }
    }
  };
  walk((app.router as unknown as { stack: LayerLike[] }).stack, '');
  return [...byPath].map(([path, methods]) => ({ path, methods: [...methods].sort() }));
}

const join = (a: string, b: string) =>
  (a.replace(/\/+$/, '') + (b === '/' ? '' : b) || '/').replace(/\/+/g, '/');

/** A matcher for an Express path (`:name` segments; Express's matching is case-insensitive). */
export function routeMatcher(path: string): RegExp {
  const source = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}
