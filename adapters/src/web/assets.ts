// The pages' static files (adapters/src/web/assets/): read once at start, served under a path that
// carries a hash of all of them, `/assets/<hash>/<file>`, cached for a year. Any change to any file
// changes the hash, so a page never gets a stale file, and ES modules import each other by relative
// path with no build step. docs/web.md#assets
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';

const DIR = fileURLToPath(new URL('./assets/', import.meta.url));
const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

const files = new Map<string, { body: Buffer; type: string }>();
const digest = createHash('sha256');
for (const name of readdirSync(DIR).sort()) {
  const type = TYPES[extname(name)];
  if (!type) continue;
  const body = readFileSync(DIR + name);
  files.set(name, { body, type });
  digest.update(name).update('\0').update(body).update('\0');
}
/** The hash of every asset together: the path segment that makes the URLs immutable. */
export const ASSETS_HASH = digest.digest('hex').slice(0, 12);

/** The URL of an asset, e.g. `assetUrl('app.css')` → `/assets/3f9c…/app.css`. Throws for a missing file. */
export function assetUrl(name: string): string {
  if (!files.has(name)) throw new Error(`no asset ${name} in adapters/src/web/assets/`);
  return `/assets/${ASSETS_HASH}/${name}`;
}

export function assetRoutes(): Router {
  const r = Router();
  r.get('/assets/:hash/:name', (req, res, next) => {
    const file = files.get(req.params.name);
    if (!file || req.params.hash !== ASSETS_HASH) return next();
    res
      .setHeader('Cache-Control', 'public, max-age=31536000, immutable')
      .setHeader('Cross-Origin-Resource-Policy', 'same-origin')
      .type(file.type)
      .send(file.body);
  });
  return r;
}
