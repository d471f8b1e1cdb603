// The Cache-Control of the public spatial documents (docs/spatial.md#rate-limits-and-caching).
/** World, view, portal, graph and node documents change with their owner's edits: a short public cache. */
export const CACHE_WOW = 'public, max-age=10';
/** The discovery document and tag answers change rarely. */
export const CACHE_SPATIAL_DISCOVERY = 'public, max-age=60';
