// The run watch ends a run only in the wedge it is for: the last file left, every test of it done, and
// silence for the whole wait; anything else still running or pending waits as vitest does.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { wedgedFile, type WatchedFile } from './run-watch-reporter.js';

const WEDGE = 11 * 60_000;
const file = (o: Partial<WatchedFile> = {}): WatchedFile => ({
  file: 'infra/test/x.unit.test.ts',
  started: 0,
  lastActivity: 1_000,
  testStates: ['passed', 'passed', 'skipped'],
  ...o,
});

describe('run watch: the wedged last file', () => {
  test('given the last file with every test done and silent for the whole wait, then it is the wedge', () => {
    const f = file();
    assert.equal(wedgedFile([f], 9, 10, 1_000 + WEDGE, WEDGE), f);
  });

  test('given a test of it still pending, then the run waits (a test or hook has its own timeout)', () => {
    assert.equal(
      wedgedFile([file({ testStates: ['passed', 'pending'] })], 9, 10, 1_000 + WEDGE, WEDGE),
      undefined,
    );
  });

  test('given less silence than the wait, then the run waits', () => {
    assert.equal(wedgedFile([file()], 9, 10, WEDGE, WEDGE), undefined);
  });

  test('given other files still running or not yet started, then the run waits', () => {
    assert.equal(wedgedFile([file(), file({ file: 'b' })], 8, 10, 1_000 + WEDGE, WEDGE), undefined);
    assert.equal(wedgedFile([file()], 7, 10, 1_000 + WEDGE, WEDGE), undefined);
  });

  test('given a file whose tests are not collected yet, then the run waits', () => {
    assert.equal(wedgedFile([file({ testStates: [] })], 9, 10, 1_000 + WEDGE, WEDGE), undefined);
  });
});
