// Tests never pick a free port and then listen on it: between the pick and the listen a parallel test
// can take it. What listens asks for port 0 and reads the address it got (a child `tributary start`
// reports it in TRIBUTARY_ADDRESS_FILE, docs/cli.md). This reads the sources for the shapes of a pick.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SEARCHED = ['test/src', 'infra/src', 'infra/bin', 'adapters/src', 'services/src'];

/**
 * Allowed, and why. Embedded PostgreSQL cannot listen on port 0 (it must be told a port), so it picks
 * one and starts again on another pick when that one was taken meanwhile.
 */
const ALLOWED = new Set(['infra/src/postgres/embedded-postgres.ts']);

/** A helper by a name that says it picks a port, or a package that does. */
const PICKER =
  /\b(?:free|pick|find|get|unused|random|open)_?Port\b|['"](?:get-port|portfinder|detect-port)['"]/i;
/** Listening on port 0 only to read the port, let it go again and hand the number out. */
const LISTEN_READ_CLOSE =
  /\.listen\(\s*0\b[\s\S]{0,600}?\.address\(\)[\s\S]{0,300}?\.close\([\s\S]{0,160}?\breturn\s+(?:port|\w+\.port)\b/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return /\.(?:ts|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** The files of the repository that pick a port, by the rule in force. */
function pickers(): string[] {
  return SEARCHED.flatMap((d) => sources(join(ROOT, d)))
    .map((file) => relative(ROOT, file).split('\\').join('/'))
    .filter((file) => file !== 'test/src/unit/no-port-picking.unit.test.ts' && !ALLOWED.has(file))
    .filter((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return PICKER.test(text) || LISTEN_READ_CLOSE.test(text);
    });
}

describe('no test picks a port and then listens', () => {
  test('given the sources, when read, then none picks a free port to hand out (only port 0, its address read)', () => {
    assert.deepEqual(pickers(), []);
  });

  test('given the shapes a pick takes, when matched, then each is caught and listening on port 0 is not', () => {
    const picks = [
      'const port = await freePort();',
      "import getPort from 'get-port';",
      `async function pick() {
        const s = net.createServer();
        await new Promise((r) => s.listen(0, '127.0.0.1', r));
        const { port } = s.address();
        await new Promise((r) => s.close(r));
        return port;
      }`,
    ];
    for (const p of picks) assert.ok(PICKER.test(p) || LISTEN_READ_CLOSE.test(p), p);
    const held = `server.listen(0, '127.0.0.1', resolve);
      const { port } = server.address();
      return { url: 'http://127.0.0.1:' + port, close: () => server.close() };`;
    assert.ok(!PICKER.test(held) && !LISTEN_READ_CLOSE.test(held));
  });
});
