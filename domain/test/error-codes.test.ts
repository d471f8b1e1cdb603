// Every error code is in exactly one list, named `area.snake_case`, with a description the docs show;
// every list an area defines is in the registry composed from them.
import { DOMAIN_ERROR_CODES, DOMAIN_ERROR_CODE_LISTS, type ErrorCodeList } from '@tributary/domain';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const CODE_FORMAT = /^[a-z]+(_[a-z]+)*\.[a-z]+(_[a-z]+)*$/;
const KINDS = new Set([
  'invalid',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'too_large',
  'unprocessable',
  'unavailable',
]);
const lists = Object.entries(DOMAIN_ERROR_CODE_LISTS) as [string, ErrorCodeList][];

test('given the error-code lists, then no code is in two of them and the composed list holds each once', () => {
  const owner = new Map<string, string>();
  for (const [list, codes] of lists)
    for (const code of Object.keys(codes)) {
      assert.equal(owner.get(code), undefined, `${code} is in both ${owner.get(code)} and ${list}`);
      owner.set(code, list);
    }
  assert.deepEqual(Object.keys(DOMAIN_ERROR_CODES).sort(), [...owner.keys()].sort());
});

test('given the error-code lists, then every code is area.snake_case with a description and known kinds', () => {
  for (const [list, codes] of lists)
    for (const [code, entry] of Object.entries(codes)) {
      assert.match(code, CODE_FORMAT, `${list}: ${code}`);
      assert.ok(entry.description.trim().length > 0, `${code} has no description`);
      for (const kind of entry.kinds) assert.ok(KINDS.has(kind), `${code}: unknown kind ${kind}`);
      // A code only reported (never thrown) says what stands in its status column.
      if (entry.kinds.length === 0) assert.ok(entry.status, `${code} is never thrown and has no status`);
    }
});

test('given every area of the domain, then each error-code list it exports is in the composed registry', async () => {
  const registered = new Set<unknown>(Object.values(DOMAIN_ERROR_CODE_LISTS));
  let found = 0;
  for (const entry of readdirSync(SRC, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'registries') continue;
    const file = entry.name === 'shared' ? 'error-codes.ts' : 'index.ts';
    const mod = (await import(`${SRC}${entry.name}/${file}`)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod))
      if (name.endsWith('_ERROR_CODES')) {
        found++;
        assert.ok(registered.has(value), `${entry.name}: ${name} is in no registry`);
      }
  }
  // An area with no codes of its own (admin) has an empty entry and no list in a folder.
  assert.equal(found, lists.filter(([, codes]) => Object.keys(codes).length > 0).length);
});
