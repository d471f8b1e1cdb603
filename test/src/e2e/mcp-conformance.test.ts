// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, run by npx under node@22
// from the npm registry; about 20 s to fetch on a clean machine) against a running instance, behind a
// reverse proxy that adds an OAuth access token obtained through the real consent flow (the suite's
// server scenarios send no credentials). See docs/agent-access.md § Conformance for the scenarios that do
// not apply and why. MCP_CONFORMANCE=skip skips this file (for a machine without the npm registry).
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { instanceBehindProxy, runServerScenario } from './mcp-conformance-helpers.js';

/** Applicable server scenarios, each with the checks it must pass. */
const SCENARIOS: Record<string, string[]> = {
  'server-initialize': ['server-initialize'],
  ping: ['ping'],
  'tools-list': ['tools-list'],
  'dns-rebinding-protection': ['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted'],
  'logging-set-level': ['logging-set-level'],
  'resources-list': ['resources-list'],
  'prompts-list': ['prompts-list'],
};

describe.skipIf(process.env.MCP_CONFORMANCE === 'skip')('MCP conformance suite (server scenarios)', () => {
  let env: Awaited<ReturnType<typeof instanceBehindProxy>>;

  beforeAll(async () => {
    // The builder, assistant and audit scopes too, so the person is offered resources and prompts.
    env = await instanceBehindProxy(
      'svc.profile.read svc.profile.write svc.builder.read svc.builder.write svc.assistant.read svc.audit.read',
    );
  });
  afterAll(async () => {
    await env?.stop();
  });

  for (const [scenario, expected] of Object.entries(SCENARIOS))
    test(`given a running instance, when the suite runs ${scenario}, then every check succeeds`, async () => {
      const r = await runServerScenario(env.mcpUrl, scenario);
      assert.ok(r.checks.length > 0, `no checks recorded (exit ${r.exitCode}):\n${r.output.slice(-3000)}`);
      const failed = r.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      assert.deepEqual(failed, [], r.output.slice(-3000));
      for (const id of expected)
        assert.equal(
          r.checks.find((c) => c.id === id)?.status,
          'SUCCESS',
          `${id}:\n${r.output.slice(-3000)}`,
        );
      assert.equal(r.exitCode, 0, r.output.slice(-3000));
    });
});
