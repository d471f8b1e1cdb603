// Every catalogue operation reads as a sentence when it is a plan step (services/src/step-words.ts), and
// no sentence names an operation the catalogue does not have.
import { allOperations, describeStep, STEP_WORDS, type StepNames } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const names: StepNames = {
  agent: (id) => (id === 'a-ada' ? '‘Ada the baker’' : 'you'),
  site: (id) => (id === undefined ? 'your default site' : '‘Home’'),
  version: () => 'the version published on 5 Dec at 14:02 (UTC)',
};

describe('plan steps in words', () => {
  test('given the catalogue, then every operation has a sentence, and every sentence an operation', () => {
    const ops = allOperations().map((op) => op.name);
    const missing = ops.filter((name) => !(name in STEP_WORDS));
    assert.deepEqual(missing, [], `operations without a sentence: ${missing.join(', ')}`);
    const stray = Object.keys(STEP_WORDS).filter((name) => !ops.includes(name));
    assert.deepEqual(stray, [], `sentences for no operation: ${stray.join(', ')}`);
  });

  test('given any operation with no arguments, then its sentence is words, never its id or a JSON dump', () => {
    for (const op of allOperations()) {
      const words = describeStep(op.name, {}, names);
      assert.ok(words.length > 0 && !words.includes('svc.') && !words.includes('{'), `${op.name}: ${words}`);
    }
  });

  test('given the steps people meet most, then they read as a person says them, ids as names', () => {
    assert.equal(
      describeStep('svc.agent.create_persona', { name: 'Ada the baker', targetAgentId: 'a-me' }, names),
      'Create a persona named ‘Ada the baker’',
    );
    assert.equal(
      describeStep('svc.builder.rollback', { siteId: 's-1', versionId: 'v-2' }, names),
      'Serve the version published on 5 Dec at 14:02 (UTC) again on ‘Home’',
    );
    assert.equal(
      describeStep('svc.builder.publish', {}, names),
      'Publish the current draft of your default site',
    );
    assert.equal(
      describeStep('svc.profile.update', { targetAgentId: 'a-ada', bio: 'Bread daily' }, names),
      'Change the profile of ‘Ada the baker’: the bio to ‘Bread daily’',
    );
  });
});
