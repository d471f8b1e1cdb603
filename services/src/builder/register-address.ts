import { addressLabelStream, decideRegisterAddress, type AddressLabelState } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { registryCaller, requireRegistrableLabel } from './address-registry-support.js';
import { withAddressConflicts } from './site-address-support.js';

export const registryEntryInput = z.strictObject({
  label: z.string().max(253),
  siteId: z.string().min(1).max(64),
});

export const registerAddress = defineBuilderOperation({
  name: 'svc.builder.register_address',
  title: 'Register a site address globally',
  description:
    'On the global instance: the signing peer instance holds a label, first come by signed request. A label another ' +
    'instance (or a site of the global instance) holds, or one held back after its release, is refused.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  // POST /api/federation/site-addresses {action: "claim"}, peer-signed only.
  ownEndpoint: true,
  input: registryEntryInput,
  output: z.object({ label: z.string(), instanceId: z.string(), siteId: z.string() }),
  async run(ctx, input) {
    const instanceId = registryCaller(ctx);
    await requireRegistrableLabel(ctx, input.label);
    const stream = addressLabelStream(input.label);
    await withAddressConflicts(input.label, () =>
      ctx.commit([stream], (states) =>
        decideRegisterAddress(
          { label: input.label, instanceId, siteId: input.siteId, now: ctx.now },
          states.get(stream) as AddressLabelState,
        ),
      ),
    );
    return { label: input.label, instanceId, siteId: input.siteId };
  },
});
