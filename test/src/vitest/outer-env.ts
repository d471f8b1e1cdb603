// vitest copies Vite's import.meta.env (BASE_URL, MODE, DEV, PROD, SSR) into each test process's
// process.env. The instance reads BASE_URL as its own public URL, and the CLI and `tributary start`
// children the tests spawn inherit process.env, so those keys are put back as the run was started with
// them (vitest.config.ts passes them in TRIBUTARY_TEST_OUTER_ENV).
import { VITE_ENV_KEYS } from './vite-env-keys.js';

const outer = JSON.parse(process.env.TRIBUTARY_TEST_OUTER_ENV ?? '{}') as Record<string, string>;
for (const key of VITE_ENV_KEYS) {
  const value = outer[key];
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}
delete process.env.TRIBUTARY_TEST_OUTER_ENV;
