// What the spatial suites share: the 0.0.1 JSON Schemas (test/vectors/wow-0.0.1) compiled once, a
// world's inputs, graphs of any size, and the footprint a refusal must leave alone.
import { spatialProjections } from '@tributary/projections';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { load as loadYaml } from 'js-yaml';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';
import type { Loose, Person } from './mcp-helpers.js';

const VECTORS = fileURLToPath(new URL('../../vectors/wow-0.0.1/', import.meta.url));

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validators = new Map(
  readdirSync(VECTORS)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => [f.replace('.schema.json', ''), ajv.compile(JSON.parse(readFileSync(VECTORS + f, 'utf8')))]),
);

/**
 * Upstream's own schemas (test/vectors/wow-0.0.1/upstream/API.yaml, components.schemas), compiled as
 * JSON Schema with what this test adds, and nothing else changed:
 * - ids are strings here (upstream: number or integer): `id`, `parent`, `rootNodeID`;
 * - no member beyond upstream's, at any depth, but the one extension member `tributary` at the top of
 *   each document (and of each embedded node);
 * - the members we always answer are required (upstream requires none), so an empty object cannot pass.
 */
const UPSTREAM_REQUIRED: Record<string, string[]> = {
  World: ['content', 'geoPose', 'presence', 'technology', 'users', 'views', 'portals', 'tributary'],
  View: ['id', 'geoPose', 'tributary'],
  Portal: ['id', 'geoPose', 'tributary'],
  Spatial: ['id', 'geoPose', 'tributary'],
  Node: ['id', 'children', 'localTransform', 'tributary'],
  User: ['id', 'tributary'],
};
type JsonSchema = Record<string, unknown>;
function upstreamSchema(name: string, schema: JsonSchema, top: boolean): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (typeof out.$ref === 'string') out.$ref = out.$ref.replace('#/components/schemas/', '#/$defs/');
  if (out.items) out.items = upstreamSchema(name, out.items as JsonSchema, false);
  if (out.properties) {
    const props: Record<string, JsonSchema> = {};
    for (const [k, v] of Object.entries(out.properties as Record<string, JsonSchema>))
      props[k] = ['id', 'parent', 'rootNodeID'].includes(k)
        ? { type: 'string', minLength: 1 }
        : upstreamSchema(name, v, false);
    if (top) {
      props.tributary = { type: 'object' };
      out.required = UPSTREAM_REQUIRED[name];
    }
    out.properties = props;
    out.additionalProperties = false;
  }
  return out;
}
const upstreamDoc = loadYaml(readFileSync(`${VECTORS}upstream/API.yaml`, 'utf8')) as {
  components: { schemas: Record<string, JsonSchema> };
};
const upstreamAjv = new Ajv2020({ allErrors: true, strict: false });
upstreamAjv.addSchema({
  $id: 'wow-upstream',
  $defs: Object.fromEntries(
    Object.entries(upstreamDoc.components.schemas).map(([k, v]) => [k, upstreamSchema(k, v, true)]),
  ),
});
const UPSTREAM_OF: Partial<Record<WowShape, string>> = {
  world: 'World',
  view: 'View',
  portal: 'Portal',
  spatial: 'Spatial',
  node: 'Node',
  user: 'User',
  'user-admission': 'User',
};

/** The body is valid against upstream's schema `name` (components.schemas), as described above. */
export function assertUpstream(name: string, body: unknown): void {
  const validate = upstreamAjv.getSchema(`wow-upstream#/$defs/${name}`);
  assert.ok(validate, `no upstream schema ${name}`);
  assert.ok(
    validate(body),
    `upstream ${name}: ${upstreamAjv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body)}`,
  );
}

export type WowShape =
  | 'world'
  | 'view'
  | 'portal'
  | 'spatial'
  | 'node'
  | 'spatial-fabric'
  | 'tag-resolution'
  | 'problem'
  | 'user'
  | 'user-admission';

/**
 * The body is valid against the 0.0.1 schema of `shape` (every error listed otherwise) and, for the
 * documents upstream defines, against upstream's own schema too (assertUpstream).
 */
export function assertShape(shape: WowShape, body: unknown): void {
  const validate = validators.get(shape);
  assert.ok(validate, `no schema ${shape}`);
  assert.ok(
    validate(body),
    `${shape}: ${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body)}`,
  );
  const upstream = UPSTREAM_OF[shape];
  if (upstream) assertUpstream(upstream, body);
}

export const content = (label: string) => ({
  label,
  age_restriction: 0,
  license: 'CC-BY-4.0',
  cost: 'free',
  version: 1,
  duration: 0,
});
export const geoPose = (lat = 51.5, lon = -0.12) => ({
  position: { lat, lon, h: 10 },
  angles: { yaw: 90, pitch: 0, roll: 0 },
});

const transform = { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };
/** A graph of `n` nodes: one root, then a tree of fan-out 10 (depth ~ log10 n). */
export function graph(n: number): Loose[] {
  const nodes: Loose[] = [];
  for (let i = 0; i < n; i++) {
    const parent = i === 0 ? null : `n${Math.floor((i - 1) / 10)}`;
    nodes.push({
      id: `n${i}`,
      label: `Node ${i}`,
      names: [`node-${i}`],
      parent,
      children: [] as string[],
      localTransform: transform,
      spatialAssetUri: `https://assets.example/models/${i}.glb`,
      appearanceUri: `https://assets.example/looks/${i % 7}.json`,
    });
  }
  for (const node of nodes.slice(1)) nodes[Number(String(node.parent).slice(1))]!.children.push(node.id);
  return nodes;
}

/** Runs an operation at /api/ops as `who` and returns the result (asserting success). */
export async function op(who: Person, name: string, input: unknown): Promise<Loose> {
  const r = await who.browser.post(`/api/ops/${name}`, input);
  assert.ok(r.status === 200 || r.status === 201, `${name}: ${r.status} ${r.text}`);
  return r.json.result as Loose;
}

/** The code a refused /api/ops call answers, with its status. */
export async function refusedOp(
  who: Person,
  name: string,
  input: unknown,
): Promise<{ status: number; code: string }> {
  const r = await who.browser.post(`/api/ops/${name}`, input);
  assert.ok(r.status >= 400, `${name} succeeded: ${r.text}`);
  return { status: r.status, code: String(r.json?.code) };
}

/** The log less provenance, and every spatial read model's rows: what a refusal must leave alone. */
export async function spatialFootprint(pool: Pool) {
  const events = await pool.query(`SELECT count(*) AS n FROM events WHERE type <> 'provenance.recorded'`);
  const tables: Record<string, unknown[]> = {};
  for (const p of spatialProjections)
    for (const t of p.tables) tables[t] = (await pool.query(`SELECT * FROM ${t} ORDER BY 1`)).rows;
  return { events: Number(events.rows[0].n), tables };
}
