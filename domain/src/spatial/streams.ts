// The spatial area's stream names. A world, its graph revisions, views, portals and node states are one
// stream (`world-<worldId>`), so every edit of a world is checked against one consistent state; a tag is
// a stream of its own keyed by scheme and tag key, so two owners registering one tag race on one stream.
export const worldStream = (worldId: string) => `world-${worldId}`;
/** `key` is the tag's normalized id for `nfc`, and the SHA-256 hex of the URL for `url` (services hash it). */
export const spatialTagStream = (scheme: string, key: string) => `spatial-tag-${scheme}-${key}`;
/** The instance's choice of primary world (served at GET /wow/world). */
export const SPATIAL_PRIMARY_STREAM = 'spatial-primary';

/** The area's scopes: reading worlds (and their owner's lists) and editing them. */
export const SPATIAL_SCOPES = { read: 'svc.spatial.read', write: 'svc.spatial.write' } as const;
