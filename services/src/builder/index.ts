// The builder area: sites, drafts, versions and publication, and what builds on them.
export * from './resolve-site.js';
export * from './markdown.js';
export * from './manifest.js';
export * from './render/render-input.js';
export { renderSite, stylesheetPath } from './render/render-site.js';
export { formActionPath, mediaFilePath, isRenderableMediaType } from './render/blocks.js';
export { escapeHtml, fileHref, pageFilePath, siteHref } from './render/html.js';
export { themeStylesheet } from './render/themes.js';
export * from './check-draft.js';
export * from './create-site.js';
export * from './list-sites.js';
export * from './operations.js';
export * from './read-draft.js';
export * from './read-site.js';
export * from './save-draft.js';
export * from './schemas.js';
export * from './update-site.js';
