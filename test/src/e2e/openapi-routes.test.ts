// The OpenAPI document is the full list of HTTP routes: every route the running Express app has
// registered (read from its router at runtime) is in the document served at /api/openapi.json, with
// the same method, a summary and its responses; and the document is valid to two independent validators.
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { registeredRoutes } from '@tributary/adapters';
import { startTestInstance, type TestInstance } from '@tributary/test';
import type { Express } from 'express';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

type Operation = { summary?: string; responses?: Record<string, { content?: Record<string, unknown> }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

/** `/api/x/:id` as OpenAPI writes it: `/api/x/{id}`. */
const templated = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
/** A matcher for a templated OpenAPI path. */
const matcher = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);

describe('OpenAPI document against the registered routes', () => {
  let instance: TestInstance;
  let doc: Doc;
  let app: Express;

  beforeAll(async () => {
    instance = await startTestInstance();
    app = instance.app as Express;
    const r = await fetch(`${instance.url}/api/openapi.json`);
    assert.equal(r.status, 200);
    doc = (await r.json()) as Doc;
  });
  afterAll(async () => {
    await instance.stop();
  });

  test('given the running app, when its routes are enumerated, then every route and method is in /api/openapi.json', () => {
    const routes = registeredRoutes(app);
    assert.ok(routes.length > 40, `only ${routes.length} routes found: the enumeration is broken`);
    const missing: string[] = [];
    for (const route of routes) {
      const path = templated(route.path);
      for (const method of route.methods) {
        // Preflights are CORS machinery, described once in the document's description.
        if (method === 'OPTIONS' || method === 'HEAD') continue;
        const m = method.toLowerCase();
        // A parameterized route is covered by its template or, for /api/ops/{name}, by one path per
        // operation.
        const covered =
          doc.paths[path]?.[m] !== undefined ||
          (path.includes('{') &&
            Object.entries(doc.paths).some(([p, ops]) => matcher(path).test(p) && ops[m] !== undefined));
        if (!covered) missing.push(`${method} ${path}`);
      }
    }
    assert.deepEqual(missing, [], `routes missing from the OpenAPI document:\n${missing.join('\n')}`);
  });

  test('given the document, then every operation has a summary and responses, and no path is one the app lacks', () => {
    const routes = registeredRoutes(app).map((r) => ({ ...r, match: matcher(templated(r.path)) }));
    for (const [path, ops] of Object.entries(doc.paths)) {
      const route = routes.find((r) => r.match.test(path));
      assert.ok(route, `${path} is documented but no route serves it`);
      for (const [method, op] of Object.entries(ops)) {
        if (method === 'parameters') continue;
        assert.ok(route.methods.includes(method.toUpperCase()), `${method} ${path}: no such route method`);
        assert.ok(op.summary, `${method} ${path}: no summary`);
        assert.ok(op.responses && Object.keys(op.responses).length > 0, `${method} ${path}: no responses`);
      }
    }
  });

  test('given the served document, when swagger-parser validates it, then it is valid OpenAPI', async () => {
    // validate() dereferences what it is given: a copy keeps `doc` as served for the other tests.
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  test("given the served document, when redocly's recommended rules lint it, then there is no error and only the warnings docs/api.md explains", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: `${instance.url}/api/openapi.json`,
      config,
    });
    const where = (p: (typeof problems)[number]) =>
      `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`;
    const errors = problems.filter((p) => p.severity === 'error').map(where);
    assert.deepEqual(errors, [], `redocly errors:\n${errors.join('\n')}`);
    // Each of these is listed, with why it stays, in docs/api.md#openapi-validation.
    const explained = new Set(['operation-2xx-response', 'operation-4xx-response']);
    const unexplained = problems.filter((p) => !explained.has(p.ruleId)).map(where);
    assert.deepEqual(
      unexplained,
      [],
      `redocly warnings docs/api.md does not explain:\n${unexplained.join('\n')}`,
    );
  });
});
