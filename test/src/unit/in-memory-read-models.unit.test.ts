// The in-memory read models answer as the SQL ones do (test/src/e2e/read-model-contract.test.ts).
import { publicKeyBase64url } from '@tributary/infra';
import { readModelContract } from '../harness/read-model-contract.js';
import { memoryServices } from './memory-services.js';

readModelContract('in-memory read models', async () => {
  const memory = memoryServices();
  return {
    services: memory.services,
    publicKey: publicKeyBase64url(memory.key.publicKey),
    close: async () => undefined,
  };
});
