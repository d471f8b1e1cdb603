// The assistant's plan runner: the confirm time allowance, how long a plan waits for its confirmation,
// and (tests only) a crash between two steps of a plan.
import type { AssistantPlanPorts } from '@tributary/services';
import type { Config } from '../config/config.js';

export function composeAssistantPlans(config: Config): AssistantPlanPorts {
  const failpoints = config.NODE_ENV === 'test' ? config.TRIBUTARY_FAILPOINTS : [];
  return {
    confirmTimeoutMs: config.ASSISTANT_CONFIRM_TIMEOUT_MS,
    planTtlSeconds: config.ASSISTANT_PLAN_TTL_SECONDS,
    // A real crash (SIGKILL, no cleanup) right after a plan's first step is on the log.
    ...(failpoints.includes('assistant.confirm.after-first-step') && {
      afterStepFinished: (_planId: string, step: number) => {
        if (step === 1) process.kill(process.pid, 'SIGKILL');
      },
    }),
  };
}
