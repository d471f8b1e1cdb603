import {
  addressInstanceStream,
  decideRecordInstanceHost,
  forbidden,
  invalid,
  isHostname,
  type AddressInstanceState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { registryCaller } from './address-registry-support.js';

export const recordAddressInstance = defineBuilderOperation({
  name: 'svc.builder.record_address_instance',
  title: "Record an instance's host in the address registry",
  description:
    'On the global instance: the signing peer instance records the host it serves its sites on (its base URL’s host, or ' +
    'a name under it). Recording the same host again changes nothing; a new one replaces it.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  // POST /api/federation/site-addresses/instances, peer-signed only.
  ownEndpoint: true,
  input: z.strictObject({ hostname: z.string().max(253) }),
  output: z.object({ instanceId: z.string(), hostname: z.string() }),
  async run(ctx, input) {
    const instanceId = registryCaller(ctx);
    const hostname = input.hostname;
    if (!isHostname(hostname))
      throw invalid('builder.hostname_invalid', 'a host name: lower-case DNS labels or an IPv4 address', {
        hostname,
      });
    // Only a name of the peer's own: its registered base URL's host, or one under it.
    const peer = await ctx.services.federation?.read.peer(instanceId);
    const own = peer ? new URL(peer.baseUrl).hostname : null;
    if (!own || !(hostname === own || hostname.endsWith(`.${own}`)))
      throw forbidden('builder.hostname_not_yours', "the host is not your base URL's host or under it", {
        hostname,
      });
    const stream = addressInstanceStream(instanceId);
    await ctx.commit([stream], (states) =>
      decideRecordInstanceHost({ instanceId, hostname }, states.get(stream) as AddressInstanceState),
    );
    return { instanceId, hostname };
  },
});
