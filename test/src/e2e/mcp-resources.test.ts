// MCP resources, prompts, argument completion and logging through the official SDK client against a
// running instance: what a person's token sees of their own sites, vault and threads; that a second
// account and a token without the scope see none of it; and that every read is in the provenance log
// as the equivalent tool call would be.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { issueToken, mcpClient, signUp, structured, type Loose, type Person } from './mcp-helpers.js';

const READ_AND_WRITE = [
  'svc.builder.read',
  'svc.builder.write',
  'svc.assistant.read',
  'svc.assistant.write',
  'svc.audit.read',
];

/** The JSON-RPC code and our stable code of a refused request. */
async function rpcError(call: Promise<unknown>): Promise<{ code: number; data: string | undefined }> {
  try {
    await call;
  } catch (e) {
    assert.ok(e instanceof McpError, `expected a JSON-RPC error, got ${String(e)}`);
    // The server's message is its own sentence; only the client adds "MCP error <code>: ".
    assert.doesNotMatch(e.message, /MCP error.*MCP error/);
    return { code: e.code, data: (e.data as { code?: string } | undefined)?.code };
  }
  assert.fail('the request succeeded');
}

const textOf = (r: { contents: Loose[] }) => r.contents[0]!.text as string;

describe('MCP resources, prompts and completions', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;
  let ben: Person;
  let adaClient: Client;
  let benClient: Client;
  let narrowClient: Client;
  let adaJti: string;
  let siteId: string;
  let threadId: string;
  let benSiteId: string;

  /** The provenance entries written since `position`, oldest first. */
  const provenanceSince = async (position: string) =>
    (
      await instance.instance.pool.query<{ data: Loose }>(
        `SELECT envelope::jsonb -> 'data' AS data FROM events WHERE type = 'provenance.recorded' AND position > $1 ORDER BY position`,
        [position],
      )
    ).rows.map((r) => r.data);
  const head = async () =>
    (
      await instance.instance.pool.query<{ p: string }>(
        'SELECT coalesce(max(position), 0)::text AS p FROM events',
      )
    ).rows[0]!.p;

  beforeAll(async () => {
    instance = await startTestInstance();
    url = instance.url;
    ada = await signUp(url, 'ada');
    ben = await signUp(url, 'ben');
    const adaToken = await issueToken(ada, { scopes: READ_AND_WRITE });
    adaJti = adaToken.jti;
    adaClient = await mcpClient(url, { bearer: adaToken.token });
    benClient = await mcpClient(url, { bearer: (await issueToken(ben, { scopes: READ_AND_WRITE })).token });
    narrowClient = await mcpClient(url, {
      bearer: (await issueToken(ada, { scopes: ['svc.profile.read'] })).token,
    });
    siteId = structured(
      await adaClient.callTool({ name: 'svc.builder.create_site', arguments: { title: 'Heron Watch' } }),
    ).siteId;
    benSiteId = structured(
      await benClient.callTool({ name: 'svc.builder.create_site', arguments: { title: 'Ben Bakes' } }),
    ).siteId;
    const chat = await ada.browser.post('/api/autobot/chat', { message: 'list my personas' });
    assert.equal(chat.status, 200, chat.text);
    threadId = chat.json.result.threadId;
  });
  afterAll(async () => {
    await Promise.all([adaClient?.close(), benClient?.close(), narrowClient?.close()]);
    await instance?.destroy();
  });

  test('given a token with the read scopes, then the server declares resources, prompts, completions and logging', () => {
    const caps = adaClient.getServerCapabilities();
    assert.ok(caps?.resources && caps.prompts && caps.completions && caps.logging, JSON.stringify(caps));
    assert.notEqual(caps.resources.subscribe, true);
  });

  test('given a person with a site and a thread, when their agent lists resources, then it sees the vault, each site (draft, versions) and each thread', async () => {
    const { resources } = await adaClient.listResources();
    const uris = resources.map((r) => r.uri);
    for (const uri of [
      'tributary://vault',
      `tributary://sites/${siteId}`,
      `tributary://sites/${siteId}/draft`,
      `tributary://sites/${siteId}/versions`,
      `tributary://threads/${threadId}`,
    ])
      assert.ok(uris.includes(uri), `${uri} missing from ${uris.join(' ')}`);
    assert.ok(!uris.some((u) => u.includes(benSiteId)), 'another person’s site is listed');
    assert.ok(resources.every((r) => r.name && r.mimeType));

    const { resourceTemplates } = await adaClient.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), [
      'tributary://sites/{siteId}',
      'tributary://sites/{siteId}/draft',
      'tributary://sites/{siteId}/page{?path}',
      'tributary://sites/{siteId}/versions{?before}',
      'tributary://threads/{threadId}',
    ]);
  });

  test('when the agent reads its resources, then each answers what the equivalent tool answers, and each read is recorded like that tool call', async () => {
    const before = await head();
    const site = JSON.parse(textOf(await adaClient.readResource({ uri: `tributary://sites/${siteId}` })));
    const tool = structured(
      await adaClient.callTool({ name: 'svc.builder.read_site', arguments: { siteId } }),
    );
    assert.deepEqual(site, tool);
    assert.equal(site.site.title, 'Heron Watch');

    const draft = JSON.parse(
      textOf(await adaClient.readResource({ uri: `tributary://sites/${siteId}/draft` })),
    );
    assert.equal(draft.document.pages[0].path, '/');
    const page = JSON.parse(
      textOf(await adaClient.readResource({ uri: `tributary://sites/${siteId}/page?path=%2F` })),
    );
    assert.equal(page.page.title, 'Heron Watch');
    assert.equal(page.revision, draft.revision);
    const versions = JSON.parse(
      textOf(await adaClient.readResource({ uri: `tributary://sites/${siteId}/versions` })),
    );
    assert.deepEqual(versions, { siteId, publication: null, versions: [], nextBefore: null });

    const thread = await adaClient.readResource({ uri: `tributary://threads/${threadId}` });
    assert.equal(thread.contents[0]!.mimeType, 'application/json');
    const messages = JSON.parse(textOf(thread)).messages as Loose[];
    assert.equal(messages[0]!.text, 'list my personas');

    const vault = await adaClient.readResource({ uri: 'tributary://vault' });
    assert.equal(vault.contents[0]!.mimeType, 'text/markdown');
    assert.equal(
      textOf(vault),
      structured(await adaClient.callTool({ name: 'svc.assistant.read_vault', arguments: {} })).markdown,
    );

    const recorded = (await provenanceSince(before)).map((d) => [d.tool, d.surface, d.outcome, d.tokenJti]);
    assert.deepEqual(recorded, [
      ['svc.builder.read_site', 'mcp', 'ok', adaJti],
      ['svc.builder.read_site', 'mcp', 'ok', adaJti], // the tool call
      ['svc.builder.read_draft', 'mcp', 'ok', adaJti],
      ['svc.builder.read_draft', 'mcp', 'ok', adaJti],
      ['svc.builder.read_site', 'mcp', 'ok', adaJti],
      ['svc.assistant.read_thread', 'mcp', 'ok', adaJti],
      ['svc.assistant.read_vault', 'mcp', 'ok', adaJti],
      ['svc.assistant.read_vault', 'mcp', 'ok', adaJti],
    ]);
  });

  test('when a URI names nothing here or a page the draft lacks, then the read is -32002 resource.not_found', async () => {
    for (const uri of [
      'tributary://nothing',
      `tributary://sites/${siteId}/elsewhere`,
      `tributary://sites/${siteId}/page?path=%2Fmissing`,
      'https://example.org/',
      'not a uri',
    ])
      assert.deepEqual(await rpcError(adaClient.readResource({ uri })), {
        code: -32002,
        data: 'resource.not_found',
      });
    assert.deepEqual(await rpcError(adaClient.readResource({ uri: 'tributary://sites/not-a-uuid' })), {
      code: -32602,
      data: 'input.invalid',
    });
  });

  test('given a second account, then it cannot list, read, complete or be prompted with the first one’s objects, and the refusals are recorded', async () => {
    const { resources } = await benClient.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes(`tributary://sites/${benSiteId}`));
    assert.ok(!uris.some((u) => u.includes(siteId) || u.includes(threadId)), uris.join(' '));

    const before = await head();
    for (const uri of [
      `tributary://sites/${siteId}`,
      `tributary://sites/${siteId}/draft`,
      `tributary://sites/${siteId}/page?path=%2F`,
      `tributary://sites/${siteId}/versions`,
    ])
      assert.deepEqual(await rpcError(benClient.readResource({ uri })), {
        code: -32002,
        data: 'builder.site_not_found',
      });
    assert.deepEqual(await rpcError(benClient.readResource({ uri: `tributary://threads/${threadId}` })), {
      code: -32002,
      data: 'assistant.thread_not_found',
    });
    assert.deepEqual(
      await rpcError(benClient.getPrompt({ name: 'continue_thread', arguments: { threadId } })),
      { code: -32002, data: 'assistant.thread_not_found' },
    );
    const recorded = await provenanceSince(before);
    assert.equal(recorded.length, 6);
    assert.ok(recorded.every((d) => d.outcome === 'error' && d.controllerAccountId === ben.accountId));

    const sites = await benClient.complete({
      ref: { type: 'ref/prompt', name: 'build_site' },
      argument: { name: 'siteId', value: '' },
    });
    assert.ok(sites.completion.values.includes(benSiteId));
    assert.ok(!sites.completion.values.includes(siteId));
    const threads = await benClient.complete({
      ref: { type: 'ref/resource', uri: 'tributary://threads/{threadId}' },
      argument: { name: 'threadId', value: threadId.slice(0, 4) },
    });
    assert.deepEqual(threads.completion.values, []);
    // Ada's site named as the context of a page completion is still not Ben's to read.
    assert.deepEqual(
      await rpcError(
        benClient.complete({
          ref: { type: 'ref/resource', uri: 'tributary://sites/{siteId}/page{?path}' },
          argument: { name: 'path', value: '' },
          context: { arguments: { siteId } },
        }),
      ),
      { code: -32002, data: 'builder.site_not_found' },
    );
  });

  test('given a token without the scopes, then it is offered no resources, templates or prompts, and a read is refused and recorded as denied', async () => {
    assert.deepEqual((await narrowClient.listResources()).resources, []);
    assert.deepEqual((await narrowClient.listResourceTemplates()).resourceTemplates, []);
    assert.deepEqual((await narrowClient.listPrompts()).prompts, []);
    const before = await head();
    assert.deepEqual(await rpcError(narrowClient.readResource({ uri: `tributary://sites/${siteId}` })), {
      code: -32003,
      data: 'auth.insufficient_scope',
    });
    assert.deepEqual(await rpcError(narrowClient.readResource({ uri: 'tributary://vault' })), {
      code: -32003,
      data: 'auth.insufficient_scope',
    });
    assert.deepEqual(
      (await provenanceSince(before)).map((d) => [d.tool, d.outcome, d.errorCode]),
      [
        ['svc.builder.read_site', 'denied', 'auth.insufficient_scope'],
        ['svc.assistant.read_vault', 'denied', 'auth.insufficient_scope'],
      ],
    );
    // What is not offered is not run: nothing is read, so nothing is recorded.
    const mid = await head();
    assert.deepEqual(
      await rpcError(narrowClient.getPrompt({ name: 'build_site', arguments: { topic: 'herons' } })),
      { code: -32602, data: 'prompt.not_found' },
    );
    const none = await narrowClient.complete({
      ref: { type: 'ref/prompt', name: 'build_site' },
      argument: { name: 'siteId', value: '' },
    });
    assert.deepEqual(none.completion.values, []);
    assert.deepEqual(await provenanceSince(mid), []);
  });

  test('when the agent lists and gets prompts, then the common jobs come with their arguments, and bad arguments are -32602 input.invalid', async () => {
    const { prompts } = await adaClient.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), [
      'build_site',
      'continue_thread',
      'summarize_agent_activity',
    ]);
    const build = prompts.find((p) => p.name === 'build_site')!;
    assert.deepEqual(
      build.arguments?.map((a) => [a.name, a.required]),
      [
        ['topic', true],
        ['siteId', false],
      ],
    );

    const got = await adaClient.getPrompt({
      name: 'build_site',
      arguments: { topic: 'herons of the Lea', siteId },
    });
    const text = (got.messages[0]!.content as { text: string }).text;
    assert.match(text, /herons of the Lea/);
    assert.match(text, new RegExp(`tributary://sites/${siteId}/draft`));
    assert.match(text, /svc\.builder\.save_draft/);

    const cont = await adaClient.getPrompt({ name: 'continue_thread', arguments: { threadId } });
    const embedded = cont.messages[0]!.content as { type: string; resource: Loose };
    assert.equal(embedded.type, 'resource');
    assert.equal(embedded.resource.uri, `tributary://threads/${threadId}`);
    assert.match(embedded.resource.text, /list my personas/);

    const summary = await adaClient.getPrompt({ name: 'summarize_agent_activity', arguments: {} });
    assert.equal((summary.messages[0]!.content as { resource: Loose }).resource.uri, 'tributary://vault');

    for (const [name, args] of [
      ['build_site', {}],
      ['build_site', { topic: '   ' }],
      ['build_site', { topic: 'x'.repeat(501) }],
      ['continue_thread', { threadId, colour: 'blue' }],
    ] as const)
      assert.deepEqual(await rpcError(adaClient.getPrompt({ name, arguments: args })), {
        code: -32602,
        data: 'input.invalid',
      });
    assert.deepEqual(await rpcError(adaClient.getPrompt({ name: 'write_a_poem' })), {
      code: -32602,
      data: 'prompt.not_found',
    });
  });

  test('when the agent completes an id argument, then it is offered its own ids matching what was typed', async () => {
    const all = await adaClient.complete({
      ref: { type: 'ref/prompt', name: 'build_site' },
      argument: { name: 'siteId', value: '' },
    });
    const listed = structured(await adaClient.callTool({ name: 'svc.builder.list_sites', arguments: {} }));
    assert.deepEqual(
      all.completion.values,
      listed.sites.map((s: Loose) => s.siteId),
    );
    assert.ok(all.completion.values.includes(siteId));
    assert.equal(all.completion.total, all.completion.values.length);
    const typed = await adaClient.complete({
      ref: { type: 'ref/resource', uri: 'tributary://sites/{siteId}' },
      argument: { name: 'siteId', value: 'heron' },
    });
    assert.deepEqual(typed.completion.values, [siteId]);
    const thread = await adaClient.complete({
      ref: { type: 'ref/prompt', name: 'continue_thread' },
      argument: { name: 'threadId', value: threadId.slice(0, 6) },
    });
    assert.deepEqual(thread.completion.values, [threadId]);
    const paths = await adaClient.complete({
      ref: { type: 'ref/resource', uri: 'tributary://sites/{siteId}/page{?path}' },
      argument: { name: 'path', value: '/' },
      context: { arguments: { siteId } },
    });
    assert.deepEqual(paths.completion.values, ['/']);
    const topic = await adaClient.complete({
      ref: { type: 'ref/prompt', name: 'build_site' },
      argument: { name: 'topic', value: 'he' },
    });
    assert.deepEqual(topic.completion.values, []);
    assert.deepEqual(
      await rpcError(
        adaClient.complete({
          ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
          argument: { name: 'arg1', value: 'x' },
        }),
      ),
      { code: -32602, data: 'prompt.not_found' },
    );
    assert.deepEqual(
      await rpcError(
        adaClient.complete({
          ref: { type: 'ref/resource', uri: 'tributary://elsewhere/{id}' },
          argument: { name: 'id', value: '' },
        }),
      ),
      { code: -32602, data: 'resource.not_found' },
    );
  });

  test('when the agent sets a logging level, then the server accepts it with an empty result', async () => {
    assert.deepEqual(await adaClient.setLoggingLevel('warning'), {});
  });
});
