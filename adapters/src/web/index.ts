// Server-rendered pages (docs/web.md): templates, the page shell, components, assets, sessions and forms,
// and the pages themselves.
export * from './access-pages.js';
export * from './account-mail-pages.js';
export * from './account-pages.js';
export * from './assets.js';
export * from './components.js';
export * from './error-pages.js';
export * from './home-pages.js';
export * from './html.js';
export * from './html-page.js';
export * from './landing-routes.js';
export * from './operator-outbox-pages.js';
export * from './operator-pages.js';
export * from './operator-settings-pages.js';
export * from './operator-account-pages.js';
export * from './page-forms.js';
export * from './page-session.js';
export * from './page-shell.js';
export * from './reader-zone.js';
export { builderPages, type BuilderPageOptions } from './builder/builder-pages.js';
export { assistantPages } from './assistant/assistant-pages.js';
export { applyDraftEdit, linkLines } from './builder/draft-edits.js';
export { fieldsFromRows } from './builder/form-pages.js';
export { argsWithMarks } from './assistant/plan-card.js';
export { studioPaths } from './openapi-studio.js';
export { landingPaths } from './openapi-web.js';
export { webPaths } from './openapi-web.js';
