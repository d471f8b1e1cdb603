import { allOperations } from '@tributary/services';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'vitest';
import { OPENAPI_PATH, renderOpenApi } from '../src/scripts/write-openapi.js';

test('given the catalogue, when the OpenAPI document is generated, then docs/openapi.json is up to date (run `npm run docs:openapi`)', () => {
  assert.equal(readFileSync(OPENAPI_PATH, 'utf8'), renderOpenApi());
});

test('given the OpenAPI document, then every non-public catalogue operation has an operation with its name as operationId', () => {
  const doc = JSON.parse(renderOpenApi()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  const ids = new Set(Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId)));
  for (const op of allOperations()) assert.ok(ids.has(op.name), op.name);
});
