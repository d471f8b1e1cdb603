// The vault document and the assistant's provenance end to end, on a real instance over PostgreSQL:
// plans are proposed and confirmed on the log, and their steps run through the pipeline as the confirm
// path runs them (surface `assistant`, a provenance entry naming the plan step, the step's outcome on
// the plan stream). The document is read over REST (JSON and the Markdown download) and the MCP SDK, by
// its owner only; it follows the vault setting; rebuilding its read model writes the same bytes.
import {
  decideConfirmPlan,
  decideFinishStep,
  decideProposePlan,
  planStream,
  type PlanState,
  type PlanStep,
} from '@tributary/domain';
import { rebuildProjections } from '@tributary/infra';
import { assistantVaultProjections, tokensProjections } from '@tributary/projections';
import {
  commitEvents,
  execute,
  getOperation,
  planHash,
  readVaultDocument,
  type Principal,
} from '@tributary/services';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  createPersona,
  errorCodeOf,
  issueToken,
  mcpClient,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';

interface StepSpec {
  tool: string;
  args: Record<string, unknown>;
  title: string;
}

describe('the assistant vault document and provenance', () => {
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;

  const session = (p: Person): Principal => ({
    kind: 'session',
    sessionId: randomUUID(),
    accountId: p.accountId,
    agentId: p.agentId,
  });

  /** Proposes and confirms a plan of `steps` for `owner`, acting as `actingAgentId`. */
  async function confirmedPlan(owner: Person, steps: StepSpec[], actingAgentId = owner.agentId) {
    const services = instance.instance.services;
    const planId = randomUUID();
    const expiresAt = new Date(Date.now() + 600_000).toISOString();
    const planSteps: PlanStep[] = steps.map((s, i) => ({
      step: i + 1,
      tool: s.tool,
      title: s.title,
      args: { ...s.args, targetAgentId: actingAgentId },
      writes: getOperation(s.tool)!.kind === 'command',
      untrusted: [],
    }));
    const plan = {
      planId,
      threadId: randomUUID(),
      messageId: randomUUID(),
      ownerAgentId: owner.agentId,
      actingAgentId,
      steps: planSteps,
      expiresAt,
    };
    const hash = planHash(plan);
    const stream = planStream(planId);
    await commitEvents(
      services,
      [stream],
      (s) => decideProposePlan(s.get(stream) as PlanState, { ...plan, hash }),
      owner.agentId,
    );
    await commitEvents(
      services,
      [stream],
      (s) =>
        decideConfirmPlan(s.get(stream) as PlanState, {
          ownerAgentId: owner.agentId,
          hash,
          now: new Date(),
          confirmedByAgentId: owner.agentId,
          via: 'http',
        }),
      owner.agentId,
    );
    return { planId, hash, stream, steps: planSteps };
  }

  /**
   * Runs step `n` as the confirm path does: through the pipeline on the `assistant` surface with a
   * provenance entry naming the plan step; its outcome is recorded on the plan stream.
   */
  async function runStep(owner: Person, plan: Awaited<ReturnType<typeof confirmedPlan>>, n: number) {
    const services = instance.instance.services;
    const step = plan.steps[n - 1]!;
    const finish = (status: 'ran' | 'failed', summary: string, events: Loose[], errorCode?: string) =>
      commitEvents(
        services,
        [plan.stream],
        (s) =>
          decideFinishStep(s.get(plan.stream) as PlanState, {
            ownerAgentId: owner.agentId,
            step: n,
            status,
            summary,
            errorCode,
            events: events.map((e) => ({
              id: e.id,
              type: e.type,
              stream: e.stream,
              streamVersion: e.streamVersion,
            })),
          }),
        owner.agentId,
      );
    try {
      const out = await execute(services, getOperation(step.tool)!, step.args, session(owner), 'assistant', {
        provenance: { plan: { planId: plan.planId, hash: plan.hash, step: n } },
      });
      await finish('ran', `ran ${step.tool}`, out.commit?.events ?? []);
      return out.commit?.events ?? [];
    } catch (e) {
      await finish('failed', 'it failed', [], (e as { code: string }).code);
      return [];
    }
  }

  const vaultOf = async (p: Person, query = '') => {
    const r = await p.browser.get(`/api/autobot/vault${query}`);
    assert.equal(r.status, 200, r.text);
    return r.json.result as {
      agentId: string;
      markdown: string;
      entries: number;
      lastPosition: number | null;
    };
  };

  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_NAME: 'Vault' } });
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given nothing done yet, when reading the vault, then the header and nothing else', async () => {
    const v = await vaultOf(ada);
    assert.equal(v.agentId, ada.agentId);
    assert.equal(v.entries, 0);
    assert.equal(v.lastPosition, null);
    assert.match(v.markdown, /^# Assistant vault\n/);
    assert.match(v.markdown, /_Nothing yet\._\n$/);
  });

  test('given a confirmed plan whose steps ran and failed, when reading the vault, then each outcome with what ran, for whom, and where its events sit in the log', async () => {
    const plan = await confirmedPlan(ada, [
      {
        tool: 'svc.agent.create_persona',
        args: { name: 'Soup Kitchen' },
        title: 'Create the persona Soup Kitchen',
      },
      // A second persona with the same handle is refused: the middle step fails.
      { tool: 'svc.agent.create_persona', args: { name: 'Twin', handle: 'ada' }, title: 'Create a twin' },
    ]);
    const ran = await runStep(ada, plan, 1);
    assert.ok(ran.length > 0);
    await runStep(ada, plan, 2);

    const v = await vaultOf(ada);
    assert.equal(v.entries, 2);
    const [, first, second] = v.markdown.split(/^## /m);
    assert.match(first!, new RegExp(`^Plan \`${plan.planId}\`, step 1: Create the persona Soup Kitchen\n`));
    assert.match(
      first!,
      /- What ran: `svc\.agent\.create_persona` with `\{"name":"Soup Kitchen","targetAgentId":"/,
    );
    assert.match(
      first!,
      new RegExp(`- For: agent \`${ada.agentId}\` \\(the plan of agent \`${ada.agentId}\`\\)`),
    );
    assert.match(first!, /- Result: ran — ran svc\\\.agent\\\.create\\_persona/);
    assert.match(
      first!,
      new RegExp(`- Confirmed: \\S+ by agent \`${ada.agentId}\` via \`http\`; plan hash \`${plan.hash}\``),
    );
    // The step's own events, each at its position in the log.
    for (const e of ran)
      assert.ok(
        first!.includes(`\`${e.stream}\` version ${e.streamVersion} at position ${e.position}`),
        first,
      );
    const finished = await instance.instance.pool.query(
      `SELECT position FROM events WHERE stream = $1 AND type = 'assistant.plan_step_finished' ORDER BY position`,
      [plan.stream],
    );
    assert.ok(first!.includes(`recorded at log position ${finished.rows[0].position}`));
    assert.equal(v.lastPosition, Number(finished.rows[1].position));
    assert.match(second!, /- Result: failed \(`[a-z_.]+`\) — it failed/);
    assert.match(second!, /- Its events: none/);

    // Download: the same bytes, as a Markdown attachment.
    const file = await fetch(`${instance.url}/api/autobot/vault/download`, {
      headers: { cookie: ada.browser.cookie },
    });
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(file.headers.get('content-disposition'), `attachment; filename="vault-${ada.agentId}.md"`);
    assert.equal(await file.text(), v.markdown);
    // The turn loop's read is the same document.
    assert.equal((await readVaultDocument(instance.instance.services, ada.agentId)).markdown, v.markdown);
  });

  test('given text from outside in a step title and summary, when written to the vault, then it cannot add headings, links or lines', async () => {
    const plan = await confirmedPlan(ada, [
      {
        tool: 'svc.agent.list_personas',
        args: {},
        title: 'List\n## Injected heading\n[click](https://evil.example) `code`',
      },
    ]);
    await runStep(ada, plan, 1);
    const v = await vaultOf(ada);
    const section = v.markdown.split(/^## /m).find((s) => s.includes(plan.planId))!;
    assert.equal(
      section.split('\n')[0],
      `Plan \`${plan.planId}\`, step 1: List \\#\\# Injected heading \\[click\\]\\(https://evil\\.example\\) \\\`code\\\``,
    );
    assert.ok(!/^## Injected/m.test(v.markdown));
  });

  test('given a persona acting, when reading vaults, then the document is the persona’s, read by its owner only (REST and MCP)', async () => {
    const persona = await createPersona(ada, 'Ada Bakes');
    const plan = await confirmedPlan(
      ada,
      [{ tool: 'svc.agent.list_personas', args: {}, title: 'List personas' }],
      persona,
    );
    await runStep(ada, plan, 1);
    const v = await vaultOf(ada, `?targetAgentId=${persona}`);
    assert.equal(v.entries, 1);
    assert.ok(v.markdown.includes(`- For: agent \`${persona}\` (the plan of agent \`${ada.agentId}\`)`));
    assert.ok(!(await vaultOf(ada)).markdown.includes(plan.planId));

    for (const target of [ada.agentId, persona]) {
      const r = await bob.browser.get(`/api/autobot/vault?targetAgentId=${target}`);
      assert.equal(r.status, 404);
      assert.equal(r.json.code, 'agent.not_found');
      const d = await bob.browser.get(`/api/autobot/vault/download?targetAgentId=${target}`);
      assert.equal(d.status, 404);
    }
    const anonymous = await fetch(`${instance.url}/api/autobot/vault/download`);
    assert.equal(anonymous.status, 401);

    const token = await issueToken(ada, { scopes: ['svc.assistant.read'] });
    const client = await mcpClient(instance.url, { bearer: token.token });
    const noScope = await issueToken(ada, { scopes: ['svc.agent.read'] });
    const other = await mcpClient(instance.url, { bearer: noScope.token });
    try {
      const viaMcp = structured(
        await client.callTool({ name: 'svc.assistant.read_vault', arguments: { targetAgentId: persona } }),
      );
      assert.equal(viaMcp.markdown, v.markdown);
      assert.equal(
        errorCodeOf(await other.callTool({ name: 'svc.assistant.read_vault', arguments: {} })),
        'auth.insufficient_scope',
      );
      const bobs = await issueToken(bob, { scopes: ['svc.assistant.read'] });
      const bobClient = await mcpClient(instance.url, { bearer: bobs.token });
      try {
        assert.equal(
          errorCodeOf(
            await bobClient.callTool({
              name: 'svc.assistant.read_vault',
              arguments: { targetAgentId: persona },
            }),
          ),
          'agent.not_found',
        );
      } finally {
        await bobClient.close();
      }
    } finally {
      await client.close();
      await other.close();
    }
  });

  test('given the vault turned off, when a step finishes, then nothing new is added; turned on again, new steps are', async () => {
    const before = await vaultOf(ada);
    assert.equal((await ada.browser.post('/api/autobot/settings', { vault: false })).status, 200);
    const quiet = await confirmedPlan(ada, [{ tool: 'svc.agent.list_personas', args: {}, title: 'Quietly' }]);
    await runStep(ada, quiet, 1);
    assert.equal((await vaultOf(ada)).markdown, before.markdown);
    assert.equal((await ada.browser.post('/api/autobot/settings', { vault: true })).status, 200);
    const loud = await confirmedPlan(ada, [{ tool: 'svc.agent.list_personas', args: {}, title: 'Out loud' }]);
    await runStep(ada, loud, 1);
    const after = await vaultOf(ada);
    assert.equal(after.entries, before.entries + 1);
    assert.ok(after.markdown.startsWith(before.markdown.replace(/_Nothing yet\._\n$/, '')));
    assert.ok(after.markdown.includes(loud.planId));
    assert.ok(!after.markdown.includes(quiet.planId));
  });

  test('given plans that ran, when listing what the assistant did, then its provenance entries name the plan step, newest first, paged and filtered by plan', async () => {
    const plan = await confirmedPlan(ada, [
      { tool: 'svc.agent.list_personas', args: {}, title: 'one' },
      { tool: 'svc.agent.list_personas', args: {}, title: 'two' },
    ]);
    await runStep(ada, plan, 1);
    await runStep(ada, plan, 2);
    const byPlan = await ada.browser.get(`/api/autobot/provenance?planId=${plan.planId}`);
    assert.equal(byPlan.status, 200, byPlan.text);
    assert.deepEqual(
      (byPlan.json.result.entries as Loose[]).map((e) => [e.tool, e.surface, e.plan]),
      [
        ['svc.agent.list_personas', 'assistant', { planId: plan.planId, hash: plan.hash, step: 2 }],
        ['svc.agent.list_personas', 'assistant', { planId: plan.planId, hash: plan.hash, step: 1 }],
      ],
    );
    assert.equal(byPlan.json.result.nextBefore, null);
    // Each in words: the step as its plan put it.
    assert.deepEqual(
      (byPlan.json.result.entries as Loose[]).map((e) => e.words),
      ['two', 'one'],
    );

    const all = await ada.browser.get('/api/autobot/provenance');
    const entries = all.json.result.entries as Loose[];
    assert.ok(entries.length >= 7, String(entries.length));
    assert.ok(entries.every((e) => e.plan !== null && e.surface === 'assistant'));
    // Ada's own calls outside the assistant (her REST calls) are not in it.
    assert.ok(!entries.some((e) => e.tool === 'svc.assistant.update_settings'));
    const page1 = await ada.browser.get('/api/autobot/provenance?limit=2');
    assert.equal(page1.json.result.entries.length, 2);
    const page2 = await ada.browser.get(
      `/api/autobot/provenance?limit=2&before=${page1.json.result.nextBefore}`,
    );
    assert.deepEqual(
      [...page1.json.result.entries, ...page2.json.result.entries].map((e: Loose) => e.entryId),
      entries.slice(0, 4).map((e) => e.entryId),
    );
    // Someone else's plan is not there for them.
    const bobs = await bob.browser.get(`/api/autobot/provenance?planId=${plan.planId}`);
    assert.deepEqual(bobs.json.result.entries, []);
    for (const q of ['?limit=0', '?limit=500', '?before=nope', '?colour=blue']) {
      const r = await ada.browser.get(`/api/autobot/provenance${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.json.code, 'input.invalid', q);
    }

    const token = await issueToken(ada, { scopes: ['svc.assistant.read'] });
    const client = await mcpClient(instance.url, { bearer: token.token });
    try {
      const viaMcp = structured(
        await client.callTool({ name: 'svc.assistant.list_provenance', arguments: { planId: plan.planId } }),
      );
      assert.deepEqual(
        (viaMcp.entries as Loose[]).map((e) => e.entryId),
        (byPlan.json.result.entries as Loose[]).map((e) => e.entryId),
      );
    } finally {
      await client.close();
    }
  });

  test('given a plan proposed by chat and confirmed over REST, when it has run, then the vault and the provenance show its step, over REST and MCP', async () => {
    const said = await bob.browser.post('/api/autobot/chat', { message: 'create a persona called Soup Pot' });
    assert.equal(said.status, 200, said.text);
    const plan = said.json.result.plan as Loose;
    assert.ok(plan, said.text);
    assert.equal((await vaultOf(bob)).entries, 0);
    const confirmed = await bob.browser.post('/api/autobot/confirm', { planHash: plan.hash });
    assert.equal(confirmed.status, 200, confirmed.text);
    const v = await vaultOf(bob);
    assert.equal(v.entries, 1);
    assert.ok(v.markdown.includes(`## Plan \`${plan.planId}\`, step 1: `), v.markdown);
    assert.match(v.markdown, /- What ran: `svc\.agent\.create_persona` with `\{"name":"Soup Pot"/);
    // What happened, in words (Markdown-escaped): the step's sentence as done, and how much it changed.
    assert.match(
      v.markdown,
      /- Result: ran — Created an identity named ‘Soup Pot’; one change was recorded\\\./,
    );
    assert.doesNotMatch(v.markdown, /- Result: ran — svc\./);
    assert.match(v.markdown, new RegExp(`- Confirmed: \\S+ by agent \`${bob.agentId}\` via \`http\``));
    // The step's events, each with the position the log gave it.
    const { rows } = await instance.instance.pool.query(
      `SELECT e.stream, e.stream_version, e.position FROM events e
       WHERE e.type = 'agent.created' AND e.envelope::jsonb -> 'data' ->> 'name' = $1`,
      ['Soup Pot'],
    );
    assert.equal(rows.length, 1);
    assert.ok(
      v.markdown.includes(
        `\`${rows[0].stream}\` version ${rows[0].stream_version} at position ${rows[0].position}`,
      ),
      v.markdown,
    );
    const provenance = await bob.browser.get(`/api/autobot/provenance?planId=${plan.planId}`);
    assert.deepEqual(
      (provenance.json.result.entries as Loose[]).map((e) => [e.tool, e.outcome, e.plan?.step]),
      [['svc.agent.create_persona', 'ok', 1]],
    );
    const token = await issueToken(bob, { scopes: ['svc.assistant.read'] });
    const client = await mcpClient(instance.url, { bearer: token.token });
    try {
      assert.equal(
        structured(await client.callTool({ name: 'svc.assistant.read_vault', arguments: {} })).markdown,
        v.markdown,
      );
    } finally {
      await client.close();
    }
  });

  test('given the read models rebuilt from the log, then every vault document and the assistant provenance are the same bytes', async () => {
    const pool = instance.instance.pool;
    const agents = (
      await pool.query(`SELECT DISTINCT agent_id FROM rm_assistant_vault_entries ORDER BY 1`)
    ).rows.map((r) => r.agent_id as string);
    assert.ok(agents.length >= 2);
    const docs = async () => {
      const out: Record<string, string> = {};
      for (const a of agents) out[a] = (await readVaultDocument(instance.instance.services, a)).markdown;
      return out;
    };
    const rows = async () =>
      (await pool.query(`SELECT * FROM rm_assistant_vault_entries ORDER BY plan_id, step`)).rows;
    const provenance = async () => (await ada.browser.get('/api/autobot/provenance?limit=200')).json.result;
    const [docsBefore, rowsBefore, provenanceBefore] = [await docs(), await rows(), await provenance()];
    const counts = await rebuildProjections(pool, [...assistantVaultProjections, ...tokensProjections]);
    assert.ok(counts['assistant-vault']! > 0);
    assert.deepEqual(await rows(), rowsBefore);
    const docsAfter = await docs();
    for (const a of agents)
      assert.equal(Buffer.compare(Buffer.from(docsAfter[a]!), Buffer.from(docsBefore[a]!)), 0, a);
    assert.deepEqual(await provenance(), provenanceBefore);
  });
});
