// The instance's run-time settings (docs/operations.md#run-time-settings): read and changed by its
// operators through these two operations (REST, MCP, the /operator/settings page), applied by every
// process. Each process re-reads the `instance-settings` stream at most SETTINGS_REFRESH_MS after its
// last read, so a change applies everywhere within that bound (at once in the process that made it).
import {
  decideUpdateInstanceSettings,
  evolveInstanceSettings,
  initialInstanceSettingsState,
  INSTANCE_SETTINGS_STREAM,
  SETTINGS_NOTICE_MAX,
  SETTINGS_RESERVED_HANDLES_MAX,
  settingsPatch,
  type InstanceSettingsState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineInstanceOperation } from './instance-operation.js';
import type { InstanceOperationServices } from './instance-operation.js';

/** The longest a process goes on with settings it read before: the bound of a change's reach. */
export const SETTINGS_REFRESH_MS = 2000;

export interface InstanceSettingsView extends InstanceSettingsState {
  /** When the last change was made; null while every setting has its default. */
  updatedAt: string | null;
}

const cache = new WeakMap<InstanceOperationServices, { readAt: number; value: InstanceSettingsView }>();

/**
 * The settings as this process knows them: read from the log when its copy is older than
 * SETTINGS_REFRESH_MS (or `fresh` asks for the log's latest, as the mail consumer does on each pass).
 */
export async function instanceSettings(
  services: InstanceOperationServices,
  o: { fresh?: boolean } = {},
): Promise<InstanceSettingsView> {
  // Real elapsed time, not the services' clock: a test's frozen clock must not freeze the settings.
  const now = performance.now();
  const held = cache.get(services);
  if (!o.fresh && held && now - held.readAt < SETTINGS_REFRESH_MS) return held.value;
  const events = await services.store.readStream(INSTANCE_SETTINGS_STREAM);
  const value: InstanceSettingsView = {
    ...events.reduce(evolveInstanceSettings, initialInstanceSettingsState()),
    updatedAt: events.at(-1)?.occurredAt ?? null,
  };
  cache.set(services, { readAt: now, value });
  return value;
}

const settingsOutput = z.object({
  signupOpen: z.boolean().describe('whether a visitor may create an account (the first account always may)'),
  notice: z.string().describe('the notice every page shows at its top; empty for none'),
  mailPaused: z.boolean().describe('while true no mail is sent; requests wait and go once it is false'),
  reservedHandles: z
    .array(z.string())
    .describe('handles the operators reserved on top of the built-in list; no sign-up may take them'),
  revision: z.number().describe('how many changes were made'),
  updatedAt: z.string().nullable(),
  refreshSeconds: z
    .number()
    .describe('every process of the instance applies a change within this many seconds'),
});
const view = (s: InstanceSettingsView) => ({
  signupOpen: s.signupOpen,
  notice: s.notice,
  mailPaused: s.mailPaused,
  reservedHandles: s.reservedHandles,
  revision: s.revision,
  updatedAt: s.updatedAt,
  refreshSeconds: SETTINGS_REFRESH_MS / 1000,
});

export const readInstanceSettings = defineInstanceOperation({
  name: 'svc.instance.read_settings',
  title: 'Read the run-time settings (operators)',
  description:
    'The instance settings operators may change while it runs: whether sign-up is open, the notice shown on every page, whether mail sending is paused, and the handles they reserved.',
  kind: 'query',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({}),
  output: settingsOutput,
  async run(ctx) {
    return view(await instanceSettings(ctx.services, { fresh: true }));
  },
});

export const updateInstanceSettings = defineInstanceOperation({
  name: 'svc.instance.update_settings',
  title: 'Change the run-time settings (operators)',
  description:
    `Change any of: signupOpen (false refuses new accounts with account.signup_closed; the first account is always allowed), ` +
    `notice (one line of plain text, at most ${SETTINGS_NOTICE_MAX} characters, shown at the top of every page; "" removes it), ` +
    `mailPaused (true holds every outgoing mail, false sends what waited), ` +
    `reservedHandles (the whole list of handles no sign-up may take, on top of the built-in one; at most ` +
    `${SETTINGS_RESERVED_HANDLES_MAX}). Settings not given stay as they are; ` +
    `a change equal to the current value writes nothing. Every process applies it within ${SETTINGS_REFRESH_MS / 1000} s.`,
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: settingsPatch,
  output: settingsOutput.extend({ changed: z.array(z.string()).describe('the settings this call changed') }),
  async run(ctx, input) {
    let changed: string[] = [];
    await ctx.commit([INSTANCE_SETTINGS_STREAM], (states) => {
      const events = decideUpdateInstanceSettings(
        states.get(INSTANCE_SETTINGS_STREAM) as InstanceSettingsState,
        input,
      );
      changed = events.flatMap((e) => Object.keys(e.data));
      return events;
    });
    // This process applies it at once; the others within SETTINGS_REFRESH_MS.
    return { ...view(await instanceSettings(ctx.services, { fresh: true })), changed };
  },
});
