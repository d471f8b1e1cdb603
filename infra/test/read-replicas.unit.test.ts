// The read replicas' settings and how their lag is dated (docs/operations.md#read-replicas); the
// replicas themselves run in test/src/e2e/read-replica.test.ts, against a real hot standby.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { lagSecondsFrom, lsnBytes, replicaLabel } from '../src/postgres/read-replicas.js';

describe('read replica settings', () => {
  test('given none, then there are no replicas and the documented defaults hold', () => {
    const c = loadConfig({ NODE_ENV: 'test' });
    assert.deepEqual(c.DATABASE_READ_URL, []);
    assert.equal(c.DATABASE_REPLICA_MAX_LAG_MS, 5000);
    assert.equal(c.DATABASE_REPLICA_CHECK_MS, 1000);
  });

  test('given several URLs, comma separated with spaces, then each is one replica', () => {
    const c = loadConfig({
      NODE_ENV: 'test',
      DATABASE_READ_URL: ' postgres://r1.internal/db , postgresql://u:p@r2.internal:6432/db,',
    });
    assert.deepEqual(c.DATABASE_READ_URL, [
      'postgres://r1.internal/db',
      'postgresql://u:p@r2.internal:6432/db',
    ]);
  });

  test('given something that is not a postgres URL, or a bound out of range, then start is refused', () => {
    for (const env of [
      { DATABASE_READ_URL: 'r1.internal:5432' },
      { DATABASE_READ_URL: 'postgres://ok/db,mysql://r2/db' },
      { DATABASE_REPLICA_MAX_LAG_MS: '-1' },
      { DATABASE_REPLICA_CHECK_MS: '10' },
    ])
      assert.throws(
        () => loadConfig({ NODE_ENV: 'test', ...env }),
        /configuration: DATABASE_(READ_URL|REPLICA_)/,
      );
  });
});

describe('replica lag', () => {
  test('given WAL positions, then they compare as bytes', () => {
    assert.equal(lsnBytes('0/0'), 0n);
    assert.equal(lsnBytes('16/B374D848'), (0x16n << 32n) + 0xb374d848n);
    assert.ok(lsnBytes('1/0') > lsnBytes('0/FFFFFFFF'));
  });

  test('given the primary sampled each second, then a standby is as late as the oldest sample it has not replayed', () => {
    const samples = [
      { at: 10_000, lsn: 100n },
      { at: 11_000, lsn: 200n },
      { at: 12_000, lsn: 300n },
    ];
    assert.equal(lagSecondsFrom(samples, 300n, 12_050), 0); // replayed the newest
    assert.equal(lagSecondsFrom(samples, 350n, 12_050), 0); // past it (written since)
    assert.equal(lagSecondsFrom(samples, 250n, 12_000), 0); // missing only what the newest sample holds
    assert.equal(lagSecondsFrom(samples, 150n, 12_000), 1); // missing WAL written by 11 s
    assert.equal(lagSecondsFrom(samples, 50n, 12_500), 2.5); // behind every sample kept
    assert.equal(lagSecondsFrom([], 0n, 12_000), 0);
  });

  test('given an idle primary, then a caught-up standby stays at 0 however long ago the last write was', () => {
    const samples = [1, 2, 3, 4].map((s) => ({ at: s * 60_000, lsn: 500n }));
    assert.equal(lagSecondsFrom(samples, 500n, 300_000), 0);
  });

  test('given a replica URL with credentials, then its label has where it is and never the password', () => {
    assert.equal(replicaLabel('postgres://reader:s3cret@r1.internal:6432/trib'), 'r1.internal:6432/trib');
    assert.equal(replicaLabel('postgres://reader@r2.internal/trib'), 'r2.internal:5432/trib');
    assert.equal(
      replicaLabel('postgres://postgres@localhost/postgres?host=%2Ftmp%2Fsock'),
      '/tmp/sock:5432/postgres',
    );
  });
});
