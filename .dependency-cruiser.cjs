// The layer rule (docs/architecture.md#layers): domain ← services ← adapters ← infra, domain ← projections ← adapters,
// and inside a layer, areas (or in adapters, surfaces) that reach each other only through their index.
// `npm run lint:layers` (part of `npm test`) fails when any of these is broken.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain/ imports nothing of ours outside itself, no Node built-ins and no npm package but zod',
      severity: 'error',
      from: { path: '^domain/' },
      to: {
        pathNot: ['^domain/', 'node_modules/zod/'],
      },
    },
    {
      name: 'services-only-domain',
      severity: 'error',
      from: { path: '^services/' },
      to: { path: '^(projections|adapters|infra|test)/' },
    },
    {
      name: 'projections-only-domain',
      severity: 'error',
      from: { path: '^projections/' },
      to: { path: '^(services|adapters|infra|test)/' },
    },
    {
      name: 'adapters-not-infra',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^(infra|test)/' },
    },
    {
      name: 'nothing-imports-test',
      severity: 'error',
      from: { path: '^(domain|services|projections|adapters|infra)/src/' },
      to: { path: '^test/' },
    },
    {
      name: 'areas-through-their-index',
      comment:
        'inside domain, services and projections every folder but the layer’s own machinery (shared, pipeline, ports, registries) is a capability area, self-contained: it imports another area only through that area’s index.ts, or its ports (ports.ts or ports/index.ts: the types it shares, which import no operation)',
      severity: 'error',
      from: {
        path: '^(domain|services|projections)/src/([^/]+)/',
        pathNot: '^(domain|services|projections)/src/(shared|pipeline|ports|registries)/',
      },
      to: {
        path: '^$1/src/[^/]+/',
        pathNot: [
          '^$1/src/$2/',
          '^$1/src/[^/]+/index\\.ts$',
          '^$1/src/[^/]+/ports(/index)?\\.ts$',
          '^$1/src/(shared|pipeline|ports|registries)/',
        ],
      },
    },
    {
      name: 'surfaces-through-their-index',
      comment:
        'inside adapters every folder (http, mcp, oauth, federation, web, well-known, outbound, app, and any new one) imports another only through that folder’s index.ts',
      severity: 'error',
      from: { path: '^adapters/src/([^/]+)/' },
      to: {
        path: '^adapters/src/[^/]+/',
        pathNot: ['^adapters/src/$1/', '^adapters/src/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'area-ports-are-types',
      comment:
        'an area’s ports (services/src/<area>/ports.ts or ports/) import only domain, the core ports and other areas’ ports, so any area and the pipeline may name them without reaching an operation',
      severity: 'error',
      from: { path: '^services/src/[^/]+/ports(\\.ts$|/)' },
      to: {
        path: '^services/src/',
        pathNot: ['^services/src/ports/', '^services/src/[^/]+/ports(\\.ts$|/)'],
      },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'not-to-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)test/', '(^|/)\\.tsbuild/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
