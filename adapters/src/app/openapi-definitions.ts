// zod writes a recursive schema (e.g. `z.json()`) as `$defs` inside the schema it emits, with refs such as
// `#/$defs/__schema0`. Inlined into the OpenAPI document, `#` is the document's root, where there is no
// `$defs`: validators stop there. So the definitions move to `components.schemas` and the refs follow.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null;

/** Point every `#/$defs/<name>` ref under `node` at its new place. */
function rewriteRefs(node: unknown, moved: Map<string, string>): void {
  if (Array.isArray(node)) return node.forEach((n) => rewriteRefs(n, moved));
  if (!isObject(node)) return;
  const ref = node.$ref;
  if (typeof ref === 'string' && moved.has(ref)) node.$ref = moved.get(ref);
  for (const value of Object.values(node)) rewriteRefs(value, moved);
}

/**
 * Move the `$defs` of every schema under `paths` into `schemas`. A definition zod named itself (`__schema0`)
 * is named for the operation holding it (`svc.spatial.set_node_state.schema0`); one named with `.meta({ id })`
 * keeps its name. The same name twice with different content is a mistake that fails here, not in a client.
 */
export function hoistDefinitions(paths: Json, schemas: Json): void {
  const visit = (node: unknown, operationId: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, operationId));
    if (!isObject(node)) return;
    const id = typeof node.operationId === 'string' ? node.operationId : operationId;
    if (isObject(node.$defs)) {
      const defs = node.$defs;
      delete node.$defs;
      const moved = new Map<string, string>();
      const names = new Map<string, string>();
      for (const name of Object.keys(defs)) {
        const target = name.startsWith('__') ? `${id}.${name.replace(/^_+/, '')}` : name;
        moved.set(`#/$defs/${name}`, `#/components/schemas/${target}`);
        names.set(name, target);
      }
      rewriteRefs(node, moved);
      rewriteRefs(defs, moved);
      for (const [name, target] of names) {
        const existing = schemas[target];
        if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(defs[name]))
          throw new Error(`OpenAPI: two different schemas are both named ${target}`);
        schemas[target] = defs[name];
      }
    }
    for (const value of Object.values(node)) visit(value, id);
  };
  visit(paths, '');
}
