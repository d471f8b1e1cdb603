// The configuration is declared per area with the secrets apart (infra/src/config/), then merged in
// config.ts: a name declared twice would silently take the later area's rule, and a secret among the
// settings would be easy to miss when reviewing what may be logged or shown.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import { loadConfig, variablesByArea } from '../src/config/config.js';

const declared = Object.entries(variablesByArea).flatMap(([area, variables]) =>
  Object.keys(variables).map((name) => ({ area, name })),
);

describe('configuration areas', () => {
  test('given every area, then each variable is declared in one area only', () => {
    const seen = new Map<string, string>();
    for (const { area, name } of declared) {
      assert.equal(seen.get(name), undefined, `${name} is declared in ${seen.get(name)} and ${area}`);
      seen.set(name, area);
    }
  });

  test('given the variables whose value grants access, then they are the secrets area’s and no other’s', () => {
    const grantsAccess = (name: string) => /_(SECRET|TOKEN|KEY|PASSPHRASE)$/.test(name);
    const misplaced = declared.filter((d) => grantsAccess(d.name) && d.area !== 'secrets');
    assert.deepEqual(misplaced, []);
    assert.ok(Object.keys(variablesByArea.secrets).every(grantsAccess));
  });

  test('given a variable of any area set, then the merged configuration takes it or refuses it by name', () => {
    // A name the merged schema did not hold would be dropped silently, neither taken nor refused.
    for (const { name } of declared.filter((d) => d.name !== 'NODE_ENV')) {
      let taken: Record<string, unknown> | undefined;
      try {
        taken = loadConfig({ NODE_ENV: 'test', [name]: 'not-a-value' });
      } catch (e) {
        assert.match((e as Error).message, new RegExp(`\\b${name}\\b`));
        continue;
      }
      assert.notEqual(taken[name], undefined, name);
    }
  });

  test('given every declared variable, then docs/configuration.md describes it', () => {
    const docs = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    const undocumented = declared.filter(({ name }) => !docs.includes(`\`${name}\``));
    assert.deepEqual(undocumented, []);
  });
});
