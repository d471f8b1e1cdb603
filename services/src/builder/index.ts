// The builder area: sites, drafts, versions and publication, and what builds on them.
export * from './resolve-site.js';
