// Shared helpers for the test suites.
export { createTestDatabase, testClusterUrl } from './database.js';
export type { TestDatabase } from './database.js';
export {
  startTestInstance,
  browser,
  listenOnFreePort,
  type TestInstance,
  type TestInstanceOptions,
} from './instance.js';
export { holdConnectionForSuite, openHeldConnection, openTestLog } from './log.js';
export { feedPageJson } from './feed-page.js';
export { eventually, eventuallyWithin } from './eventually.js';
export { appendNewAgents, unsignedEnvelope } from './log-fill.js';
export { eventStoreContract, type ContractLog } from './event-store-contract.js';
export { envelopeMaker } from './envelope-maker.js';
export { CLI_PATH, runCli, type CliResult } from './cli.js';
export * as images from './images.js';
export { startTestDnsServer, type TestDnsServer, type DnsRecordType } from './dns-server.js';
export { CHROMIUM, chromiumAvailable } from './chromium.js';
export {
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
  type OpenAiCompatibleServerOptions,
  type ScriptedReply,
  type ScriptedToolCall,
  type ReceivedChatRequest,
  type Responder,
  type HostileOptions,
} from './openai-compatible-server.js';
export { proposeTestPlan, type ProposedForTest } from './assistant-plans.js';
export {
  startStripeApiServer,
  parseStripeForm,
  STRIPE_API_VERSION,
  type StripeApiServer,
  type StripeApiServerOptions,
  type WebhookEndpoint,
  type WebhookEndpointOptions,
  type WebhookDelivery,
  type DeliverOptions,
  type IdempotencyStats,
  type FailNextOptions,
  type ReceivedStripeRequest,
  type StripeObjectKind,
} from './stripe-api-server.js';
export { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';
export { startTestSmtpServer, type TestSmtpServer, type ReceivedMail } from './smtp-server.js';
export { startTestRedis, type TestRedis } from './redis-server.js';
export { startHotStandbyPair, postgresBinaries, type HotStandbyPair } from './hot-standby.js';
