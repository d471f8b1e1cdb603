// POST /api/mcp/device/code (RFC 8628 §3.1): a headless client asks for a device code and a user code.
// The device code is 256 random bits; the user code 8 letters from a 20-letter alphabet without
// look-alikes (about 34 bits), so guessing one is rate limited at the approval page.
import { decideRequestDevice, oauthDeviceStream, oauthError, type OAuthDeviceState } from '@tributary/domain';
import { z } from 'zod';
import { defineOAuthOperation } from './oauth-operation.js';
import { requireClient } from './grant-family.js';
import { requestedScopes } from './scopes.js';

const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** XXXX-XXXX, uniformly from the alphabet (rejection sampling keeps it unbiased). */
function newUserCode(): string {
  const out: string[] = [];
  while (out.length < 8) {
    for (const b of crypto.getRandomValues(new Uint8Array(16))) {
      if (b < 240 && out.length < 8) out.push(USER_CODE_ALPHABET[b % 20]!);
    }
  }
  return `${out.slice(0, 4).join('')}-${out.slice(4).join('')}`;
}

/** What a person typed, in canonical form, or undefined when it cannot be a user code. */
export function normalizeUserCode(raw: string): string | undefined {
  const letters = raw.toUpperCase().replace(/[^A-Z]/g, '');
  if (letters.length !== 8 || [...letters].some((c) => !USER_CODE_ALPHABET.includes(c))) return undefined;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

export const requestDeviceCode = defineOAuthOperation({
  name: 'svc.oauth.device.request',
  title: 'Start a device authorization',
  description: 'RFC 8628 device authorization request.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  ownEndpoint: true,
  actsForAgent: false,
  input: z.object({
    clientId: z.string().max(2000),
    scopes: z.array(z.string().max(100)).max(64),
    resource: z.string().max(2000).optional(),
  }),
  async run(ctx, input) {
    const { services } = ctx;
    const client = await requireClient(ctx, input.clientId);
    if (!client.grantTypes.includes('urn:ietf:params:oauth:grant-type:device_code'))
      throw oauthError('unauthorized_client', 'this client did not register for the device grant');
    const scopes = requestedScopes(client, input.scopes, ctx.services.config.scopesSupported);
    const audience = services.tokens.accessTokens?.audience;
    if (!audience) throw oauthError('temporarily_unavailable', 'this process does not issue tokens');
    if (input.resource !== undefined && input.resource !== audience)
      throw oauthError('invalid_target', 'the only resource here is the MCP endpoint');
    const lifetime = services.config.oauth.deviceCodeSeconds;
    const deviceCode = services.ids.secret(32);
    const userCode = newUserCode();
    const deviceDigest = services.ids.sha256(deviceCode);
    const stream = oauthDeviceStream(deviceDigest);
    await ctx.commit([stream], (states) =>
      decideRequestDevice(
        {
          deviceDigest,
          userCodeDigest: services.ids.sha256(`user-code:${userCode}`),
          clientId: client.clientId,
          scopes,
          resource: audience,
          expiresAt: new Date(ctx.now.getTime() + lifetime * 1000).toISOString(),
        },
        states.get(stream) as OAuthDeviceState,
      ),
    );
    return { deviceCode, userCode, expiresIn: lifetime };
  },
});
