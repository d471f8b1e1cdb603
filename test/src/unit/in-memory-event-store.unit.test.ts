// The in-memory store holds to the same EventStore contract as PgEventStore.
import { createEnvelopeSigner, generateSigningKey } from '@tributary/infra';
import { randomUUID } from 'node:crypto';
import { eventStoreContract } from '../harness/event-store-contract.js';
import { envelopeMaker } from '../harness/envelope-maker.js';
import { InMemoryEventStore } from './in-memory-event-store.js';

eventStoreContract('InMemoryEventStore', async () => {
  const key = generateSigningKey();
  const origin = randomUUID();
  const signer = createEnvelopeSigner({ origin, privateKey: key.privateKey, publicKey: key.publicKey });
  return {
    store: new InMemoryEventStore(),
    envelopes: envelopeMaker(signer, origin).envelopes,
    close: async () => undefined,
  };
});
