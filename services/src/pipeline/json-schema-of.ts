// zod → JSON Schema (draft 2020-12), the one conversion every surface serves: MCP tools/list, the
// assistant's tool offers and the OpenAPI document. Written for strict clients: zod writes a tuple as
// `prefixItems` with `items: false`, a bare boolean schema that portable-schema linters (the MCP
// Inspector's `--strict`) refuse, so a tuple becomes an array with typed `items` and a fixed length; and
// a `type` array, which single-type dialects cannot read, becomes `anyOf`.
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A tuple as an array with a typed `items` (its one element type) or `prefixItems` bounded by `maxItems`. */
function portableTuple(json: JsonSchema): void {
  if (!Array.isArray(json.prefixItems) || json.items !== false) return;
  const elements = json.prefixItems as unknown[];
  const first = JSON.stringify(elements[0]);
  if (elements.length > 0 && elements.every((e) => JSON.stringify(e) === first)) {
    json.items = elements[0];
    delete json.prefixItems;
  } else {
    // `maxItems` already forbids anything past the prefix.
    json.maxItems ??= elements.length;
    delete json.items;
  }
}

/** The keywords that apply to one type only, moved into that type's branch when a `type` array is split. */
const KEYWORDS_OF: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
  ],
};
KEYWORDS_OF.integer = KEYWORDS_OF.number!;

/** `type: ['string', 'null']` as `anyOf` branches of one type each (single-type dialects read no arrays). */
function singleTypes(json: JsonSchema): void {
  if (!Array.isArray(json.type)) return;
  const types = json.type as string[];
  delete json.type;
  json.anyOf = types.map((type) => {
    const branch: JsonSchema = { type };
    for (const k of KEYWORDS_OF[type] ?? []) if (k in json) branch[k] = json[k];
    return branch;
  });
  for (const type of types) for (const k of KEYWORDS_OF[type] ?? []) delete json[k];
}

/**
 * An answer's plain `z.object` stays open: zod closes it (`additionalProperties: false`, as parsing strips
 * the rest), but results are sent as the operation returns them, unparsed, and may carry more.
 */
function openAnswer(json: JsonSchema, def: { type: string; catchall?: unknown }): void {
  if (def.type === 'object' && def.catchall === undefined && json.additionalProperties === false)
    delete json.additionalProperties;
}

/** Every schema object in the tree, the root first (each visited before its parts). */
function eachSchema(node: unknown, visit: (json: JsonSchema) => void): void {
  if (Array.isArray(node)) for (const n of node) eachSchema(n, visit);
  else if (isObject(node)) {
    visit(node);
    for (const [k, v] of Object.entries(node))
      if (k !== 'const' && k !== 'enum' && k !== 'default') eachSchema(v, visit);
  }
}

/** The schema of what `schema` takes (`input`) or gives (`output`), `$schema` included. */
export function jsonSchemaOf(
  schema: z.ZodType,
  io: 'input' | 'output' = 'input',
): z.core.JSONSchema.BaseSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (io === 'output' && isObject(jsonSchema))
        openAnswer(jsonSchema, zodSchema._zod.def as { type: string; catchall?: unknown });
    },
  });
  // After zod's last pass, which is where it writes `type` arrays (from `anyOf` of bare types).
  eachSchema(json, (node) => {
    portableTuple(node);
    singleTypes(node);
  });
  return json;
}
