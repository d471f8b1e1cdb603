// vitest writes Vite's import.meta.env into process.env; the test processes must not pass it on (the
// instance reads BASE_URL as its own public URL, and spawned CLIs inherit process.env).
import assert from 'node:assert/strict';
import { test } from 'vitest';

test("given a test process, then process.env carries none of Vite's own values (BASE_URL '/', MODE 'test')", () => {
  assert.notEqual(process.env.BASE_URL, '/');
  assert.notEqual(process.env.MODE, 'test');
  assert.equal(process.env.TRIBUTARY_TEST_OUTER_ENV, undefined);
});
