// The instance's run-time settings (stream `instance-settings`, docs/operations.md#run-time-settings):
// the few things an operator may change while the instance runs, each safe to change at any moment —
// whether anyone may sign up, a notice shown on every page, and whether mail sending is paused. Every
// change is an `instance.settings_updated` event holding only what changed; every process folds the
// stream (re-read at most SETTINGS_REFRESH_MS apart), so a change applies everywhere within that bound.
import { z } from 'zod';
import { invalid } from '../shared/errors.js';
import { handleSchema } from '../shared/ids.js';
import type { NewEvent } from '../shared/envelope.js';
import { defineEvent } from '../shared/define-event.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

export const INSTANCE_SETTINGS_STREAM = 'instance-settings';
/** The longest notice, in characters. */
export const SETTINGS_NOTICE_MAX = 280;
/** The most handles the operators may reserve. */
export const SETTINGS_RESERVED_HANDLES_MAX = 500;

export interface InstanceSettings {
  /** Whether a visitor may create an account (svc.auth.sign_up); the first account always may. */
  signupOpen: boolean;
  /** A notice every page shows at its top; '' for none. Plain text, one line. */
  notice: string;
  /** While true the mail consumer sends nothing; requests wait, in order, and go once it is false. */
  mailPaused: boolean;
  /** Handles the operators reserved, on top of the built-in list: no sign-up may take them. */
  reservedHandles: string[];
}

export const DEFAULT_INSTANCE_SETTINGS: InstanceSettings = {
  signupOpen: true,
  notice: '',
  mailPaused: false,
  reservedHandles: [],
};

export interface InstanceSettingsState extends InstanceSettings {
  /** How many changes were made (0: the defaults). */
  revision: number;
}

export const initialInstanceSettingsState = (): InstanceSettingsState => ({
  ...DEFAULT_INSTANCE_SETTINGS,
  revision: 0,
});

export const settingsPatch = z.strictObject({
  signupOpen: z.boolean().optional(),
  notice: z.string().max(SETTINGS_NOTICE_MAX).optional(),
  mailPaused: z.boolean().optional(),
  reservedHandles: z.array(handleSchema).max(SETTINGS_RESERVED_HANDLES_MAX).optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatch>;

export const instanceSettingsUpdated = defineEvent({
  type: 'instance.settings_updated',
  version: 1,
  federable: false,
  public: false,
  data: settingsPatch,
});

export function evolveInstanceSettings(
  state: InstanceSettingsState,
  event: StoredEventLike,
): InstanceSettingsState {
  if (event.type !== 'instance.settings_updated') return state;
  const d = event.data as SettingsPatch;
  return {
    signupOpen: d.signupOpen ?? state.signupOpen,
    notice: d.notice ?? state.notice,
    mailPaused: d.mailPaused ?? state.mailPaused,
    reservedHandles: d.reservedHandles ?? state.reservedHandles,
    revision: state.revision + 1,
  };
}

// Control characters (line breaks included) and the bidirectional overrides that could disguise text.
const UNSAFE_TEXT = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/**
 * The event for a change: only the settings whose value differs (none when nothing changes). The notice
 * is trimmed; one over SETTINGS_NOTICE_MAX or with a control character is refused (`instance.bad_setting`).
 */
export function decideUpdateInstanceSettings(state: InstanceSettingsState, patch: SettingsPatch): NewEvent[] {
  const changed: SettingsPatch = {};
  if (patch.notice !== undefined) {
    const notice = patch.notice.trim();
    if (notice.length > SETTINGS_NOTICE_MAX)
      throw invalid('instance.bad_setting', `the notice is at most ${SETTINGS_NOTICE_MAX} characters`, {
        setting: 'notice',
      });
    if (UNSAFE_TEXT.test(notice))
      throw invalid('instance.bad_setting', 'the notice is one line of plain text (no control characters)', {
        setting: 'notice',
      });
    if (notice !== state.notice) changed.notice = notice;
  }
  if (patch.signupOpen !== undefined && patch.signupOpen !== state.signupOpen)
    changed.signupOpen = patch.signupOpen;
  if (patch.mailPaused !== undefined && patch.mailPaused !== state.mailPaused)
    changed.mailPaused = patch.mailPaused;
  if (patch.reservedHandles !== undefined) {
    const reserved = [...new Set(patch.reservedHandles)].sort();
    if (reserved.join(' ') !== state.reservedHandles.join(' ')) changed.reservedHandles = reserved;
  }
  if (Object.keys(changed).length === 0) return [];
  return [{ stream: INSTANCE_SETTINGS_STREAM, type: 'instance.settings_updated', data: changed }];
}
