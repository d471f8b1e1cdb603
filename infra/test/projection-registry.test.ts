// Every projection an area defines is in the projection list composed from the areas' lists: one left
// out would never be applied at append nor rebuilt.
import { allProjections } from '@tributary/projections';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../projections/src/', import.meta.url));

const isProjection = (v: unknown): v is { name: string } =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { name?: unknown }).name === 'string' &&
  Array.isArray((v as { handles?: unknown }).handles) &&
  typeof (v as { apply?: unknown }).apply === 'function';

describe('the projection list', () => {
  test('given every projection an area (or the projections package) defines, then each is in allProjections', async () => {
    const modules: [string, Record<string, unknown>][] = [
      ['projections', (await import('@tributary/projections')) as Record<string, unknown>],
    ];
    for (const entry of readdirSync(SRC, { withFileTypes: true }))
      if (entry.isDirectory() && entry.name !== 'shared')
        modules.push([entry.name, (await import(`${SRC}${entry.name}/index.ts`)) as Record<string, unknown>]);
    let found = 0;
    for (const [area, mod] of modules)
      for (const [name, value] of Object.entries(mod))
        if (isProjection(value)) {
          found++;
          assert.ok(allProjections.includes(value as never), `${area}: ${name} is in no projection list`);
        }
    assert.ok(found >= allProjections.length);
    const names = allProjections.map((p) => p.name);
    assert.equal(new Set(names).size, names.length, 'one projection per name');
  });
});
