// The capability areas (docs/architecture.md#areas). Every registry composed from the areas' lists —
// operations and plan-step words in services, events, aggregates and error codes here, projections — is a
// record with one entry per area, typed by this list: an area missing from one, or one no list knows,
// does not compile (test/src/unit/area-registries.unit.test.ts checks the same when the code runs).
export const AREAS = [
  'accounts',
  'instance',
  'agents',
  'admin',
  'tokens',
  'federation',
  'oauth',
  'builder',
  'spatial',
  'assistant',
  'manifests',
  'payments',
  'mail',
  'sso',
] as const;

export type Area = (typeof AREAS)[number];
