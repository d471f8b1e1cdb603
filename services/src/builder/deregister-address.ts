import { addressLabelStream, decideDeregisterAddress, type AddressLabelState } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { registryCaller } from './address-registry-support.js';
import { registryEntryInput } from './register-address.js';
import { addressPortsOf } from './site-address-support.js';

export const deregisterAddress = defineBuilderOperation({
  name: 'svc.builder.deregister_address',
  title: 'Release a site address globally',
  description:
    'On the global instance: the signing peer instance gives up a label it holds; the label is then held back for that ' +
    'instance for ADDRESS_HOLD_DAYS. A label the instance does not hold is builder.address_not_found.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  // POST /api/federation/site-addresses {action: "release"}, peer-signed only.
  ownEndpoint: true,
  input: registryEntryInput,
  output: z.object({
    label: z.string(),
    instanceId: z.string(),
    releasedAt: z.string(),
    holdUntil: z.string(),
  }),
  async run(ctx, input) {
    const instanceId = registryCaller(ctx);
    const stream = addressLabelStream(input.label);
    const { holdDays } = addressPortsOf(ctx.services);
    let released: { releasedAt: string; holdUntil: string } | undefined;
    await ctx.commit([stream], (states) => {
      const events = decideDeregisterAddress(
        { label: input.label, instanceId, now: ctx.now, holdDays },
        states.get(stream) as AddressLabelState,
      );
      released = events[0]!.data as { releasedAt: string; holdUntil: string };
      return events;
    });
    return {
      label: input.label,
      instanceId,
      releasedAt: released!.releasedAt,
      holdUntil: released!.holdUntil,
    };
  },
});
