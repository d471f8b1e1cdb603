// The areas' background loops as the instance runs them (infra/src/compose/areas.ts): one list of
// runners in a fixed order, started by serve in an `all` process, none in an `api` process, each area's
// handle following its loop, and all of them stopped with the instance.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { startTestInstance } from '@tributary/test';

describe('background runners', () => {
  test('given an all process with sync on and Stripe unset, when it serves, then sync, the payments worker, the domain re-check and mail run in that order, and stop with it', async () => {
    const t = await startTestInstance({ env: { FEDERATION_SYNC: 'on', FEDERATION_QUEUE: 'in-process' } });
    try {
      const { instance } = t;
      // No reconciliation without Stripe: the worker alone stands for payments.
      assert.deepEqual(
        instance.runners.map((r) => r.name),
        ['federation-sync', 'payments-worker', 'domain-recheck', 'mail'],
      );
      assert.equal(instance.sync?.mode, 'in-process');
      assert.equal(instance.services.federation?.syncMode, 'in-process');
      assert.notEqual(instance.paymentsWorker, null);
      assert.equal(instance.paymentsReconcile, null);
      assert.notEqual(instance.domainRecheck, null);
      assert.notEqual(instance.mail, null);
      // Started once: a second call changes nothing.
      const sync = instance.sync;
      await instance.startRunners();
      assert.equal(instance.sync, sync);
      await t.stop();
      assert.deepEqual(
        [instance.sync, instance.paymentsWorker, instance.domainRecheck, instance.mail],
        [null, null, null, null],
      );
    } finally {
      // stop() is done once: destroy stops again, which finds nothing running, and drops the database.
      await t.destroy();
    }
  });

  test('given an api process, when it serves, then its runners are listed but none starts, and sync is reported as the workers run it', async () => {
    const t = await startTestInstance({
      env: {
        PROCESS_ROLE: 'api',
        FEDERATION_SYNC: 'on',
        FEDERATION_QUEUE: 'in-process',
        DOMAIN_RECHECK_SECONDS: '0',
      },
    });
    try {
      const { instance } = t;
      assert.deepEqual(
        instance.runners.map((r) => r.name),
        ['federation-sync', 'payments-worker', 'mail'],
      );
      await instance.startRunners();
      assert.deepEqual(
        [instance.sync, instance.paymentsWorker, instance.domainRecheck, instance.mail],
        [null, null, null, null],
      );
      assert.equal(instance.services.federation?.syncMode, 'in-process');
    } finally {
      await t.destroy();
    }
  });
});
