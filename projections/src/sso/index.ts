// The single-sign-on area's read models: assertions issued, sign-ons accepted, authority revocations.
export * from './sso-projection.js';
export * from './projections.js';
