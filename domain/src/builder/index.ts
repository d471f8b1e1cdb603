// The builder area: sites, drafts, versions and publication, and what builds on them.
export * from './draft-document.js';
export * from './events.js';
export * from './error-codes.js';
export * from './site-streams.js';
export * from './site.js';
export * from './publication.js';
export * from './aggregates.js';
export * from './custom-domain.js';
export * from './domain-binding.js';
export * from './media-events.js';
export * from './media.js';
export * from './address-events.js';
export * from './address.js';
export * from './site-address.js';
export * from './suspension.js';
