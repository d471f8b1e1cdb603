import { labelRefusal, repairAddressInput, repairDomainInput } from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

describe('repairing a typed address', () => {
  test('given a shop name with an apostrophe and a space, when repaired, then it is a valid label', () => {
    const r = repairAddressInput("Ada's Bakery");
    assert.equal(r.value, 'adas-bakery');
    assert.deepEqual(r.repairs, ['lower_cased', 'apostrophes_dropped', 'spaces_to_hyphens']);
    assert.equal(labelRefusal(r.value), null);
  });

  test('given a curly apostrophe, accents and spaces around, when repaired, then each is said', () => {
    const r = repairAddressInput('  Café d’Ada ');
    assert.equal(r.value, 'cafe-dada');
    assert.deepEqual(r.repairs, [
      'trimmed',
      'lower_cased',
      'apostrophes_dropped',
      'accents_dropped',
      'spaces_to_hyphens',
    ]);
  });

  test('given a valid label, when repaired, then it is kept as typed with no repairs', () => {
    assert.deepEqual(repairAddressInput('adas-bakery'), { value: 'adas-bakery', repairs: [] });
  });

  test('given the full address URL, when repaired, then its label is kept', () => {
    const r = repairAddressInput('https://Adas-Bakery.sites.example.org/menu', 'sites.example.org');
    assert.equal(r.value, 'adas-bakery');
    assert.deepEqual(r.repairs, ['scheme_dropped', 'path_dropped', 'sites_domain_dropped', 'lower_cased']);
  });

  test('given underscores and symbols, when repaired, then they become hyphens', () => {
    const r = repairAddressInput('ada_&_bea');
    assert.equal(r.value, 'ada-bea');
    assert.ok(r.repairs.includes('characters_to_hyphens'));
  });

  test('given something with no Latin letter or digit, when repaired, then it is left for the rules to refuse', () => {
    const r = repairAddressInput('пекарня');
    assert.deepEqual(r, { value: 'пекарня', repairs: [] });
    assert.equal(labelRefusal(r.value), 'charset');
  });

  test('given a name longer than a label, when repaired, then it is shortened and says so', () => {
    const r = repairAddressInput('A'.repeat(70));
    assert.equal(r.value.length, 63);
    assert.ok(r.repairs.includes('shortened'));
  });
});

describe('repairing a typed domain', () => {
  test('given a URL pasted from the browser, when repaired, then it is the apex without www', () => {
    const r = repairDomainInput('https://www.AdasBakery.fr/');
    assert.equal(r.value, 'adasbakery.fr');
    assert.deepEqual(r.repairs, ['scheme_dropped', 'lower_cased', 'www_dropped']);
  });

  test('given a port, a path, a query and a trailing dot, when repaired, then only the name stays', () => {
    const r = repairDomainInput(' shop.example.org.:8443/menu?x=1 ');
    assert.equal(r.value, 'shop.example.org');
    assert.deepEqual(r.repairs, ['trimmed', 'path_dropped', 'port_dropped', 'trailing_dot_dropped']);
  });

  test('given a bare name, when repaired, then nothing changes', () => {
    assert.deepEqual(repairDomainInput('shop.example.org'), { value: 'shop.example.org', repairs: [] });
  });

  test('given www. in front of a single further label, when repaired, then www is kept (it is the name)', () => {
    assert.equal(repairDomainInput('www.org').value, 'www.org');
  });

  test('given spaces inside, when repaired, then they are removed', () => {
    assert.equal(repairDomainInput('adas bakery.fr').value, 'adasbakery.fr');
  });
});
