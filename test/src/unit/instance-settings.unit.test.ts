// The run-time settings' decision (docs/operations.md#run-time-settings): only what changes is written,
// the notice is one trimmed line of plain text, and the fold gives the defaults until a change.
import {
  decideUpdateInstanceSettings,
  DomainError,
  evolveInstanceSettings,
  initialInstanceSettingsState,
  INSTANCE_SETTINGS_STREAM,
  type InstanceSettingsState,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const apply = (state: InstanceSettingsState, patch: Parameters<typeof decideUpdateInstanceSettings>[1]) =>
  decideUpdateInstanceSettings(state, patch).reduce(
    (s, e, i) => evolveInstanceSettings(s, { ...e, streamVersion: s.revision + i + 1 }),
    state,
  );

describe('instance settings', () => {
  test('given the defaults, then sign-up is open, mail runs, there is no notice and no handle reserved beyond the built-in list', () => {
    assert.deepEqual(initialInstanceSettingsState(), {
      signupOpen: true,
      notice: '',
      mailPaused: false,
      reservedHandles: [],
      revision: 0,
    });
  });

  test('given a change, then one event holds only the settings that differ, and the fold applies it', () => {
    const s0 = initialInstanceSettingsState();
    const events = decideUpdateInstanceSettings(s0, {
      signupOpen: false,
      mailPaused: false,
      notice: '  Hi  ',
    });
    assert.deepEqual(events, [
      {
        stream: INSTANCE_SETTINGS_STREAM,
        type: 'instance.settings_updated',
        data: { notice: 'Hi', signupOpen: false },
      },
    ]);
    const s1 = apply(s0, { signupOpen: false, notice: 'Hi' });
    assert.deepEqual(s1, {
      signupOpen: false,
      notice: 'Hi',
      mailPaused: false,
      reservedHandles: [],
      revision: 1,
    });
    // Reserved handles: the whole list each time, kept sorted and without repeats.
    const s2 = apply(s1, { reservedHandles: ['zed', 'helpdesk', 'zed'] });
    assert.deepEqual(s2.reservedHandles, ['helpdesk', 'zed']);
    assert.deepEqual(decideUpdateInstanceSettings(s2, { reservedHandles: ['zed', 'helpdesk'] }), []);
    assert.deepEqual(
      decideUpdateInstanceSettings(s1, { signupOpen: false, notice: 'Hi ' }),
      [],
      'no change, no event',
    );
    assert.deepEqual(apply(s1, { notice: '' }).notice, '');
  });

  test('given a notice with a control character or a bidirectional override, then instance.bad_setting and no event', () => {
    for (const notice of ['two\nlines', 'bell\u0007', 'tab\there', 'evil \u202e txt'])
      assert.throws(
        () => decideUpdateInstanceSettings(initialInstanceSettingsState(), { notice }),
        (e: unknown) =>
          e instanceof DomainError && e.code === 'instance.bad_setting' && e.details?.setting === 'notice',
        notice,
      );
  });
});
