// Server-rendered pages: the page frame, form helpers, and the landing page.
export * from './html-page.js';
export * from './landing-routes.js';
export * from './page-forms.js';
