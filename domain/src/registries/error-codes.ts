// Every domain error code, composed from the areas' lists: a code a DomainError may carry is in exactly
// one of them (a test checks there are no duplicates), so a new code is added to its area's list on purpose.
import { ACCOUNTS_ERROR_CODES } from '../accounts/error-codes.js';
import { AGENTS_ERROR_CODES } from '../agents/error-codes.js';
import { ASSISTANT_ERROR_CODES } from '../assistant/error-codes.js';
import { BUILDER_ERROR_CODES } from '../builder/error-codes.js';
import { FEDERATION_ERROR_CODES } from '../federation/error-codes.js';
import { INSTANCE_ERROR_CODES } from '../instance/error-codes.js';
import { MAIL_ERROR_CODES } from '../mail/error-codes.js';
import { MANIFESTS_ERROR_CODES } from '../manifests/error-codes.js';
import { OAUTH_ERROR_CODES } from '../oauth/error-codes.js';
import { PAYMENTS_ERROR_CODES } from '../payments/error-codes.js';
import { EDGE_ERROR_CODES, SHARED_ERROR_CODES } from '../shared/error-codes.js';
import type { ErrorCodeList, ErrorKind } from '../shared/error-kind.js';
import { SPATIAL_ERROR_CODES } from '../spatial/error-codes.js';
import { SSO_ERROR_CODES } from '../sso/error-codes.js';
import { TOKENS_ERROR_CODES } from '../tokens/error-codes.js';
import type { Area } from './areas.js';

/** Each area's list, in the order the docs show them. */
export const AREA_ERROR_CODES = {
  accounts: ACCOUNTS_ERROR_CODES,
  agents: AGENTS_ERROR_CODES,
  tokens: TOKENS_ERROR_CODES,
  oauth: OAUTH_ERROR_CODES,
  federation: FEDERATION_ERROR_CODES,
  instance: INSTANCE_ERROR_CODES,
  builder: BUILDER_ERROR_CODES,
  assistant: ASSISTANT_ERROR_CODES,
  spatial: SPATIAL_ERROR_CODES,
  manifests: MANIFESTS_ERROR_CODES,
  payments: PAYMENTS_ERROR_CODES,
  mail: MAIL_ERROR_CODES,
  sso: SSO_ERROR_CODES,
  // The operators' refusals are the shared codes (forbidden, not found) and the accounts'.
  admin: {},
} as const satisfies Record<Area, ErrorCodeList>;

/** The lists by owner, in the order the docs show them: what every area shares, then each area's. */
export const DOMAIN_ERROR_CODE_LISTS = {
  shared: SHARED_ERROR_CODES,
  edge: EDGE_ERROR_CODES,
  ...AREA_ERROR_CODES,
} as const satisfies Record<string, ErrorCodeList>;

/** Every code a DomainError may carry, with its entry. */
export const DOMAIN_ERROR_CODES = {
  ...SHARED_ERROR_CODES,
  ...EDGE_ERROR_CODES,
  ...ACCOUNTS_ERROR_CODES,
  ...AGENTS_ERROR_CODES,
  ...TOKENS_ERROR_CODES,
  ...OAUTH_ERROR_CODES,
  ...FEDERATION_ERROR_CODES,
  ...INSTANCE_ERROR_CODES,
  ...BUILDER_ERROR_CODES,
  ...ASSISTANT_ERROR_CODES,
  ...SPATIAL_ERROR_CODES,
  ...MANIFESTS_ERROR_CODES,
  ...PAYMENTS_ERROR_CODES,
  ...MAIL_ERROR_CODES,
  ...SSO_ERROR_CODES,
} as const satisfies ErrorCodeList;

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_CODES;

/** The kinds a code may be raised with. */
type KindOf<C extends DomainErrorCode> = (typeof DOMAIN_ERROR_CODES)[C]['kinds'][number];

/** The codes that may be raised with this kind. */
export type CodeOfKind<K extends ErrorKind> = {
  [C in DomainErrorCode]: K extends KindOf<C> ? C : never;
}[DomainErrorCode];
