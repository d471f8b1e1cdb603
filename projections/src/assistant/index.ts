// The assistant area's read models: threads, messages and plans; the vault document.
export * from './assistant-projection.js';
export * from './assistant-read-models.js';
export * from './projections.js';
export * from './vault-projections.js';
export * from './vault-markdown.js';
export * from './vault-projection.js';
export * from './vault-read-models.js';
export * from './attachment-projections.js';
export * from './attachment-read-models.js';
export * from './attachments-projection.js';
