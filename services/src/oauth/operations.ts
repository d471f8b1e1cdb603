// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { authorizeOAuthClient } from './authorize.js';
import { decideDeviceCode } from './decide-device-code.js';
import { exchangeOAuthCode } from './exchange-code.js';
import { redeemDeviceCode } from './redeem-device-code.js';
import { refreshOAuthToken } from './refresh-token.js';
import { registerOAuthClient } from './register-client.js';
import { requestDeviceCode } from './request-device-code.js';
import { revokeOAuthGrant } from './revoke-grant.js';
import { revokeOAuthTokenByValue } from './revoke-token.js';

export const oauthOperations: readonly AnyOperation[] = [
  registerOAuthClient,
  authorizeOAuthClient,
  exchangeOAuthCode,
  refreshOAuthToken,
  requestDeviceCode,
  decideDeviceCode,
  redeemDeviceCode,
  revokeOAuthGrant,
  revokeOAuthTokenByValue,
];
