// Tool schemas that strict clients accept (issue #42 item 2): every tool's input and output schema as
// /api/mcp serves them (tools/list, read with the official SDK client) compiles as JSON Schema 2020-12
// under ajv's strict mode, passes the portability rules of the MCP Inspector's `tools/list --strict` (no
// bare boolean schema such as zod's `items: false`, no schema that constrains nothing such as
// `z.unknown()`'s `{}`, no `type` arrays, no remote `$ref`), and every field names its type. A tool that
// declares its output answers `structuredContent` matching it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { mcpTools } from '@tributary/services';
import { startTestInstance, type TestInstance } from '@tributary/test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, mcpClient, signUp } from './mcp-helpers.js';
import { sample, type Schema } from './schema-sample.js';

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Where a boolean is a schema's usual spelling (`additionalProperties: false`), as the Inspector allows. */
const BOOLEAN_VALUED = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
]);
const SUBSCHEMA = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  ...BOOLEAN_VALUED,
  'contentSchema',
];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
/** Keywords that constrain a value: a schema with none accepts anything (the Inspector's "untyped-schema"). */
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  '$ref',
]);

/** Says what a value is: a `type`, a `const` or `enum`, a `$ref`, or alternatives that each say it. */
function typed(s: Node): boolean {
  if (typeof s.type === 'string' || s.const !== undefined || Array.isArray(s.enum)) return true;
  if (typeof s.$ref === 'string') return true;
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (alternatives) return alternatives.every((a) => isNode(a) && typed(a));
  return Array.isArray(s.allOf) && s.allOf.some((a) => isNode(a) && typed(a));
}

/** What keeps a schema from strict clients, each as `path: problem`. */
function portabilityFaults(schema: unknown, path: string, keyword?: string): string[] {
  if (typeof schema === 'boolean')
    return keyword !== undefined && BOOLEAN_VALUED.has(keyword) ? [] : [`${path}: bare \`${schema}\` schema`];
  if (!isNode(schema)) return [`${path}: not a schema`];
  const faults: string[] = [];
  if (Array.isArray(schema.type)) faults.push(`${path}: \`type\` is an array`);
  if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#')) faults.push(`${path}: remote $ref`);
  if (keyword !== 'not' && !Object.keys(schema).some((k) => CONSTRAINING.has(k)))
    faults.push(`${path}: constrains nothing (${JSON.stringify(schema)})`);
  // Every field, element and map value names its type (a model or client learns nothing from less).
  const fields: [string, unknown][] = [
    ...Object.entries(isNode(schema.properties) ? schema.properties : {}).map(
      ([k, v]) => [`${path}.properties.${k}`, v] as [string, unknown],
    ),
    ...(isNode(schema.items) ? [[`${path}.items`, schema.items] as [string, unknown]] : []),
    ...(isNode(schema.additionalProperties)
      ? [[`${path}.additionalProperties`, schema.additionalProperties] as [string, unknown]]
      : []),
  ];
  for (const [at, field] of fields)
    if (isNode(field) && !typed(field)) faults.push(`${at}: has no type (${JSON.stringify(field)})`);
  for (const k of SUBSCHEMA) if (k in schema) faults.push(...portabilityFaults(schema[k], `${path}.${k}`, k));
  for (const k of SUBSCHEMA_LISTS)
    if (Array.isArray(schema[k]))
      (schema[k] as unknown[]).forEach((s, i) =>
        faults.push(...portabilityFaults(s, `${path}.${k}[${i}]`, k)),
      );
  for (const k of SUBSCHEMA_MAPS)
    if (isNode(schema[k]))
      for (const [name, s] of Object.entries(schema[k] as Node))
        faults.push(...portabilityFaults(s, `${path}.${k}.${name}`, k));
  return faults;
}

describe('MCP tool schemas under strict clients', () => {
  let instance: TestInstance;
  let client: Client;
  let tools: Tool[];
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const outputs = new Map<string, ValidateFunction>();

  beforeAll(async () => {
    // Compiling every schema takes seconds: the harness's 60 s keep-alive outlasts that, so the next call
    // does not race the server closing the idle connection (ECONNRESET).
    instance = await startTestInstance();
    // The first to sign up is the instance's person and operator: a session sees every session tool.
    const opal = await signUp(instance.url, 'opal');
    client = await mcpClient(instance.url, { cookie: opal.browser.cookie });
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client?.close();
    await instance?.destroy();
  });

  test('given the whole catalogue, when tools/list is read, then every input and output schema compiles under strict ajv and passes the portability rules', () => {
    const catalogue = mcpTools().filter((op) => op.enabledFor.includes('session'));
    assert.ok(catalogue.length > 50, `only ${catalogue.length} tools: the enumeration is broken`);
    assert.deepEqual(
      tools.map((t) => t.name).sort(),
      catalogue.map((op) => op.name).sort(),
      'a session of the operator is listed every session tool',
    );
    const faults: string[] = [];
    for (const tool of tools) {
      const op = catalogue.find((o) => o.name === tool.name)!;
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.outputSchema !== undefined, op.output !== undefined, `${tool.name}: outputSchema`);
      if (tool.outputSchema) assert.equal(tool.outputSchema.type, 'object', tool.name);
      for (const [kind, schema] of [
        ['inputSchema', tool.inputSchema],
        ['outputSchema', tool.outputSchema],
      ] as const) {
        if (schema === undefined) continue;
        try {
          const validate = ajv.compile(schema);
          if (kind === 'outputSchema') outputs.set(tool.name, validate);
        } catch (e) {
          faults.push(`${tool.name} ${kind}: ajv strict: ${(e as Error).message}`);
        }
        faults.push(...portabilityFaults(schema, `${tool.name} ${kind}`));
      }
    }
    assert.deepEqual(faults, [], faults.join('\n'));
  });

  test('given the tuples of a spatial graph and the money fields of a checkout, when listed, then each is typed as strict clients read it', () => {
    const props = (name: string) => tools.find((t) => t.name === name)!.inputSchema.properties as Node;
    const node = ((props('svc.spatial.save_graph').nodes as Node).items as Node).properties as Node;
    const transform = (node.localTransform as Node).properties as Node;
    assert.deepEqual(transform.position, {
      type: 'array',
      items: { type: 'number' },
      minItems: 3,
      maxItems: 3,
    });
    assert.equal((transform.rotation as Node).maxItems, 4);
    const checkout = props('svc.payments.start_checkout');
    for (const field of ['obligationId', 'currency', 'successUrl', 'cancelUrl'])
      assert.equal((checkout[field] as Node).type, 'string', field);
    const item = ((checkout.lineItems as Node).items as Node).properties as Node;
    assert.deepEqual(
      [(item.name as Node).type, (item.amount as Node).type, (item.quantity as Node).type],
      ['string', 'number', 'number'],
    );
  });

  test('given a tool with an output schema, when the call fails, then the official SDK client reads the error code (the error is part of the schema)', async () => {
    const tool = tools.find((t) => t.name === 'svc.builder.read_media')!;
    assert.ok(tool.outputSchema, 'read_media declares its output');
    const result = await client.callTool({
      name: tool.name,
      arguments: { mediaId: '00000000-0000-4000-8000-000000000000' },
    });
    assert.equal(errorCodeOf(result), 'builder.media_not_found');
    assert.ok(outputs.get(tool.name)!(result.structuredContent));
  });

  test('given every read tool run with a plausible input, when it answers, then its structuredContent matches its outputSchema', async () => {
    const reads = tools.filter((t) => t.annotations?.readOnlyHint === true && t.outputSchema !== undefined);
    const answered: string[] = [];
    const mismatches: string[] = [];
    for (const tool of reads) {
      // The SDK client itself validates structuredContent against the outputSchema it listed: a mismatch
      // is its error rather than an answer.
      let result: CallToolResult;
      try {
        result = (await client.callTool({
          name: tool.name,
          arguments: sample(tool.inputSchema as Schema) as Record<string, unknown>,
        })) as CallToolResult;
      } catch (e) {
        mismatches.push(`${tool.name}: ${(e as Error).message}`);
        continue;
      }
      if (result.isError) continue;
      answered.push(tool.name);
      const validate = outputs.get(tool.name)!;
      if (!validate(result.structuredContent))
        mismatches.push(`${tool.name}: ${ajv.errorsText(validate.errors)}`);
    }
    assert.deepEqual(mismatches, [], mismatches.join('\n'));
    // The reads over what a fresh person has really ran (their default site among them).
    assert.ok(answered.length > 15, `only ${answered.length} reads answered: ${answered.join(', ')}`);
    assert.ok(answered.includes('svc.builder.list_sites'), answered.join(', '));
  });
});
