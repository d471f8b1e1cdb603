// Every operation's plan-step sentence, composed from the areas' maps (each beside its operations,
// `<area>/step-words.ts`), as catalogue.ts composes their operations. A unit test holds the catalogue to
// one sentence per operation (test/src/assistant/step-words.unit.test.ts).
import type { Area } from '@tributary/domain';
import { accountsStepWords } from './accounts/step-words.js';
import { adminStepWords } from './admin/step-words.js';
import { agentsStepWords } from './agents/step-words.js';
import { assistantStepWords } from './assistant/step-words.js';
import { builderStepWords } from './builder/step-words.js';
import { federationStepWords } from './federation/step-words.js';
import { instanceStepWords } from './instance/step-words.js';
import { mailStepWords } from './mail/step-words.js';
import { manifestsStepWords } from './manifests/step-words.js';
import { paymentsStepWords } from './payments/step-words.js';
import { ssoStepWords } from './sso/step-words.js';
import { spatialStepWords } from './spatial/step-words.js';
import { tokensStepWords } from './tokens/step-words.js';
import type { DescribeStep, StepNames } from './shared/step-words.js';

type StepWords = Readonly<Record<string, DescribeStep>>;

/** Each area's sentences. */
export const AREA_STEP_WORDS = {
  accounts: accountsStepWords,
  admin: adminStepWords,
  agents: agentsStepWords,
  assistant: assistantStepWords,
  builder: builderStepWords,
  federation: federationStepWords,
  instance: instanceStepWords,
  mail: mailStepWords,
  manifests: manifestsStepWords,
  // OAuth's operations are reached only at their own endpoints, never as a plan step.
  oauth: {},
  payments: paymentsStepWords,
  sso: ssoStepWords,
  spatial: spatialStepWords,
  tokens: tokensStepWords,
} as const satisfies Record<Area, StepWords>;

export const STEP_WORDS: StepWords = Object.assign({}, ...Object.values(AREA_STEP_WORDS)) as StepWords;

/** A step in words; a tool with no sentence (none in the catalogue) is named as it is. */
export function describeStep(tool: string, args: Record<string, unknown>, names: StepNames): string {
  const words = STEP_WORDS[tool];
  if (!words) return tool;
  try {
    return words(args, names).slice(0, 300);
  } catch {
    // Arguments the sentence did not expect (it is only words): the tool's name stands in.
    return tool;
  }
}
