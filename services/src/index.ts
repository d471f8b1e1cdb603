// What services/ offers: the core every operation runs on (the pipeline, the core ports, the catalogue
// and what spans the areas), then one line per area — each area's index says what it offers.
export * from './ports/index.js';
export * from './pipeline/principal.js';
export * from './pipeline/operation.js';
export * from './pipeline/services.js';
export * from './pipeline/execute.js';
export * from './pipeline/seal-events.js';
export * from './pipeline/stream-state-cache.js';
export * from './pipeline/tool-access.js';
export * from './pipeline/provenance.js';
export * from './pipeline/idempotency.js';
export * from './pipeline/json-schema-of.js';
export * from './catalogue.js';
export * from './services.js';
export * from './shared/schemas.js';
export * from './tool-listing.js';
export { STEP_WORDS, AREA_STEP_WORDS, describeStep } from './step-words.js';
export { DONE_VERBS, doneWords } from './shared/step-words.js';
export type { StepNames, DescribeStep } from './shared/step-words.js';

export * from './accounts/index.js';
export * from './admin/index.js';
export * from './agents/index.js';
export * from './assistant/index.js';
export * from './builder/index.js';
export * from './federation/index.js';
export * from './instance/index.js';
export * from './mail/index.js';
export * from './manifests/index.js';
export * from './oauth/index.js';
export * from './payments/index.js';
export * from './spatial/index.js';
export * from './sso/index.js';
export * from './tokens/index.js';
