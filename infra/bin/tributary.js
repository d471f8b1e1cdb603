#!/usr/bin/env node
// Entry point of the `tributary` command: the JavaScript `npm ci` built into infra/dist (docs/cli.md#speed),
// or the TypeScript sources through tsx's loader when that build is missing or older than the sources.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = new URL('../dist/tributary.js', import.meta.url);
const SOURCES = ['domain/src', 'services/src', 'projections/src', 'adapters/src', 'infra/src'];

/** The newest modification time under a folder (a checkout or an edit makes the build stale). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function builtIsCurrent() {
  let builtAt;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    return false;
  }
  return SOURCES.every((dir) => newest(`${root}${dir}`) <= builtAt);
}

if (builtIsCurrent()) await import(built.href);
else {
  if (process.stderr.isTTY)
    console.error(
      'tributary: running from the TypeScript sources, a few seconds slower: the build in infra/dist is missing or older than them (`npm run build` makes it)',
    );
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/tributary.ts');
}
