import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { createGroupCommit } from '../src/postgres/group-commit.js';

/** A group commit over numbers whose runs are recorded and finish when the test lets them. */
function recorder(options: {
  concurrency: number;
  maxWeight?: number;
  refuse?: (items: readonly number[]) => unknown;
  startOnNextTurn?: boolean;
}) {
  const runs: number[][] = [];
  const gates: (() => void)[] = [];
  const groups = createGroupCommit<number, string>({
    concurrency: options.concurrency,
    maxWeight: options.maxWeight ?? 100,
    weigh: () => 1,
    async runTogether(items) {
      runs.push([...items]);
      await new Promise<void>((resolve) => gates.push(resolve));
      const refusal = options.refuse?.(items);
      if (refusal) throw refusal;
      return items.map((i) => `ok ${i}`);
    },
    retryAlone: (e) => (e as { code?: string }).code === '23505',
    ...(options.startOnNextTurn && { startOnNextTurn: true }),
  });
  /** Lets every run started so far finish, then waits for the ones they start. */
  const release = async () => {
    while (gates.length > 0) {
      gates.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { groups, runs, release };
}

describe('group commit', () => {
  test('given free slots, when items arrive, then each runs at once on its own', async () => {
    const { groups, runs, release } = recorder({ concurrency: 2 });
    const a = groups.submit(1);
    const b = groups.submit(2);
    assert.deepEqual(runs, [[1], [2]]);
    await release();
    assert.deepEqual(await Promise.all([a, b]), ['ok 1', 'ok 2']);
  });

  test('given groups that start on the next turn, when items arrive in one turn, then they go as one group; a lone item still runs', async () => {
    const { groups, runs, release } = recorder({ concurrency: 2, startOnNextTurn: true });
    const same = [1, 2, 3].map((i) => groups.submit(i));
    assert.deepEqual(runs, [], 'nothing runs before the turn ends');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(runs, [[1, 2, 3]]);
    await release();
    assert.deepEqual(await Promise.all(same), ['ok 1', 'ok 2', 'ok 3']);
    // Later, alone: its own group on the next turn.
    const lone = groups.submit(4);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(runs, [[1, 2, 3], [4]]);
    await release();
    assert.equal(await lone, 'ok 4');
  });

  test('given a group starting on the next turn whose items a finishing group took first, then nothing runs twice and the slot is freed', async () => {
    const { groups, runs, release } = recorder({ concurrency: 2, startOnNextTurn: true });
    const first = groups.submit(1);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(runs, [[1]]);
    // 2 takes the second slot, to start on the next turn; 1's group finishes first and takes 2 along.
    const second = groups.submit(2);
    await release();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(runs, [[1], [2]]);
    await release();
    assert.deepEqual(await Promise.all([first, second]), ['ok 1', 'ok 2']);
    // Both slots are free again: two items in one turn still go as one group.
    const more = [3, 4].map((i) => groups.submit(i));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(runs, [[1], [2], [3, 4]]);
    await release();
    assert.deepEqual(await Promise.all(more), ['ok 3', 'ok 4']);
  });

  test('given busy slots, when more items arrive, then they wait and run together in arrival order, within the weight limit', async () => {
    const { groups, runs, release } = recorder({ concurrency: 1, maxWeight: 3 });
    const results = [1, 2, 3, 4, 5, 6].map((i) => groups.submit(i));
    assert.deepEqual(runs, [[1]]);
    await release();
    assert.deepEqual(runs, [[1], [2, 3, 4], [5, 6]]);
    assert.deepEqual(await Promise.all(results), ['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5', 'ok 6']);
  });

  test('given a group the database refuses, when it fails, then its items run again one by one and only the bad one fails', async () => {
    const conflict = Object.assign(new Error('duplicate'), { code: '23505' });
    const { groups, runs, release } = recorder({
      concurrency: 1,
      refuse: (items) => (items.includes(3) ? conflict : null),
    });
    const results = [1, 2, 3, 4].map((i) =>
      groups.submit(i).then(
        (r) => r,
        (e: Error) => e,
      ),
    );
    await release();
    assert.deepEqual(runs, [[1], [2, 3, 4], [2], [3], [4]]);
    assert.deepEqual(await Promise.all(results), ['ok 1', 'ok 2', conflict, 'ok 4']);
  });

  test('given a group that fails otherwise (a lost connection), then every member gets that error and nothing runs again', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const { groups, runs, release } = recorder({
      concurrency: 1,
      refuse: (items) => (items.length > 1 ? lost : null),
    });
    const results = [1, 2, 3].map((i) =>
      groups.submit(i).then(
        (r) => r,
        (e: Error) => e,
      ),
    );
    await release();
    assert.deepEqual(runs, [[1], [2, 3]]);
    assert.deepEqual(await Promise.all(results), ['ok 1', lost, lost]);
  });

  test('given items that cannot go as one, when run, then each gets null (its caller takes another path)', async () => {
    const groups = createGroupCommit<number, string>({
      concurrency: 1,
      maxWeight: 10,
      weigh: () => 1,
      runTogether: async () => null,
      retryAlone: () => false,
    });
    assert.deepEqual(await Promise.all([1, 2, 3].map((i) => groups.submit(i))), [null, null, null]);
  });
});
