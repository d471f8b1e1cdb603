// Every catalogue operation reads as a sentence when it is a plan step (services/src/step-words.ts), and
// no sentence names an operation the catalogue does not have.
import {
  allOperations,
  describeStep,
  DONE_VERBS,
  doneWords,
  STEP_WORDS,
  type StepNames,
} from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const names: StepNames = {
  agent: (id) => (id === 'a-ada' ? '‘Ada the baker’' : 'you'),
  site: (id) => (id === undefined ? 'your default site' : '‘Home’'),
  version: () => 'the version published on 5 Dec at 14:02 (UTC)',
  world: (id) => (id === 'w-1' ? 'the world ‘Harbour walk’' : 'the world …000001'),
  form: (id) => (id === 'f-1' ? 'the form ‘Contact’' : 'a form'),
  media: (id) => (id === 'm-1' ? 'the image ‘bread.jpg’' : 'an image'),
  submission: () => 'what was sent through the form ‘Contact’ on 5 Dec at 14:02 (UTC)',
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
      'Create an identity named ‘Ada the baker’',
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

  test('given steps on worlds, forms, images and submissions, then they are named by their names, not ids', () => {
    assert.equal(
      describeStep('svc.spatial.read_world', { worldId: 'w-1' }, names),
      'Read the world ‘Harbour walk’',
    );
    assert.equal(
      describeStep('svc.spatial.update_world', { worldId: 'w-1', content: { label: 'Quay' } }, names),
      'Change the world ‘Harbour walk’, naming it ‘Quay’',
    );
    assert.equal(
      describeStep('svc.spatial.create_world', { content: { label: 'Quay' } }, names),
      'Create a public world named ‘Quay’',
    );
    assert.equal(
      describeStep('svc.builder.delete_form', { formId: 'f-1' }, names),
      'Delete the form ‘Contact’',
    );
    assert.equal(
      describeStep('svc.builder.list_submissions', { formId: 'f-1' }, names),
      'List what visitors sent through the form ‘Contact’',
    );
    assert.equal(
      describeStep('svc.builder.delete_media', { mediaId: 'm-1' }, names),
      'Delete the image ‘bread.jpg’',
    );
    assert.equal(
      describeStep('svc.builder.delete_submission', { submissionId: 's-9' }, names),
      'Delete what was sent through the form ‘Contact’ on 5 Dec at 14:02 (UTC)',
    );
  });

  test('given any operation, then its sentence starts with a verb the summaries can put as done', () => {
    for (const op of allOperations()) {
      const verb = describeStep(op.name, {}, names).split(' ')[0]!;
      assert.ok(verb in DONE_VERBS, `${op.name}: "${verb}" has no done form in DONE_VERBS`);
    }
    assert.equal(doneWords('Create an identity named ‘Ada’'), 'Created an identity named ‘Ada’');
    assert.equal(
      doneWords('Serve the version published on 5 Dec again'),
      'Served the version published on 5 Dec again',
    );
    assert.equal(doneWords('svc.x.y'), 'Done: svc.x.y');
  });
});
