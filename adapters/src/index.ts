export * from './http/app.js';
export * from './http/problem.js';
export * from './http/context.js';
export * from './http/session.js';
export * from './http/openapi.js';
export * from './http/routes/health-routes.js';
