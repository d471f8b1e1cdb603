// OpenAPI paths of the public spatial routes (docs/spatial.md): the Web of Worlds 0.0.1 reads, the
// spatial-fabric discovery document and tag resolution. The full JSON Schemas of the bodies are in
// test/vectors/wow-0.0.1 and docs/spatial.md.
const problem = {
  description:
    'RFC 9457 problem details with a stable `code` (`spatial.id_invalid` 400, `spatial.*_not_found` 404)',
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
};
const uuid = (name: string, what: string) => ({
  name,
  in: 'path',
  required: true,
  description: what,
  schema: { type: 'string', format: 'uuid' },
});
const nodeIdParam = {
  name: 'nodeId',
  in: 'path',
  required: true,
  description: 'the node id',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
};
const ok = (description: string) => ({
  description,
  content: { 'application/json': { schema: { type: 'object' } } },
});
const read = (operationId: string, summary: string, answer: string, parameters: unknown[] = []) => ({
  get: {
    operationId,
    summary,
    description: `${summary}. Public, CORS \`*\`, rate-limited per address (RATE_LIMIT_FEED); see docs/spatial.md.`,
    tags: ['spatial'],
    parameters,
    security: [],
    responses: { '200': ok(answer), default: problem },
  },
});

export function spatialPaths(): Record<string, unknown> {
  return {
    '/wow/world': read(
      'wow.world',
      "This instance's primary hosted world (Web of Worlds 0.0.1 World)",
      'Upstream World: content, geoPose, presence, technology, users, views, portals; ours (id, spatial, links, updatedAt) under `tributary`',
    ),
    '/wow/world/{worldId}': read(
      'wow.world_by_id',
      'One public hosted world by id (Web of Worlds 0.0.1 World)',
      'World',
      [uuid('worldId', 'the world id')],
    ),
    '/wow/view/{viewId}': read(
      'wow.view',
      'A named arrival (view) of a public world',
      'Upstream View: id, geoPose; ours (name, label, world, join) under `tributary`',
      [uuid('viewId', 'the view id')],
    ),
    '/wow/portal/{portalId}': read(
      'wow.portal',
      'A portal of a public world, with its destination resolved (here, or a peer’s world known through the feed)',
      'Upstream Portal: id, geoPose; ours (label, world, destination) under `tributary`',
      [uuid('portalId', 'the portal id')],
    ),
    '/wow/spatial/{spatialId}': read(
      'wow.spatial',
      'The latest revision of a public spatial composition graph (ETag; 304 on If-None-Match)',
      'Upstream Spatial: id, rootNodeID, geoPose; ours (world, revision, node_count, roots, nodes as saved, updatedAt) under `tributary`',
      [uuid('spatialId', 'the graph id')],
    ),
    '/wow/spatial/{spatialId}/node/{nodeId}': read(
      'wow.node',
      'One node of the latest graph revision, with the live state of the object at it',
      'Upstream Node tree: id, label, names, parent, children (embedded nodes), localTransform (4×4 column-major matrix), spatialAssetURI, appearanceURI; ours (localTransform as position/rotation/scale, spatial, revision, state) under `tributary`',
      [uuid('spatialId', 'the graph id'), nodeIdParam],
    ),
    '/wow/scene/node/{nodeId}': read(
      'wow.scene_node',
      "One node of the primary world's graph (the world /wow/world serves), as /wow/spatial/{spatialId}/node/{nodeId} answers it",
      'Upstream Node tree, as wow.node',
      [nodeIdParam],
    ),
    '/.well-known/spatial-fabric': read(
      'wow.spatial_fabric',
      'Spatial-fabric discovery (RFC 8615): the worlds this instance hosts and their endpoints',
      'spatialFabric document',
    ),
    '/api/spatial-web/tags/{scheme}/{id}': read(
      'spatial_web.resolve_tag',
      'Resolve a scanned tag (url: an https URL, percent-encoded; nfc: a 4, 7 or 10 byte hex UID) to its public object',
      'scheme, id, target, origin, instance, record, manifest',
      [
        { name: 'scheme', in: 'path', required: true, schema: { type: 'string', enum: ['url', 'nfc'] } },
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      ],
    ),
  };
}
