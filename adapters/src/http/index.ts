// The HTTP toolkit every surface builds on (context, problem+json, running an operation from a route,
// sessions, public documents, rate limits, request guards) and the REST surface's own routes.
export * from './client-errors.js';
export * from './context.js';
export * from './multipart-upload.js';
export * from './body-parsers.js';
export * from './bounded-body.js';
export * from './error-codes.js';
export * from './problem.js';
export * from './public-document.js';
export * from './rate-limit.js';
export * from './request-guards.js';
export * from './request-logging.js';
export * from './routes-of.js';
export * from './routes/auth-routes.js';
export * from './routes/health-routes.js';
export * from './routes/operation-routes.js';
export * from './run-operation.js';
export * from './session.js';
export * from './remote-viewer-cookie.js';
export * from './metrics-endpoint.js';
export * from './openapi-parts.js';
export * from './routes/account-mail-routes.js';
export { accountMailPaths } from './openapi-account-mail.js';
