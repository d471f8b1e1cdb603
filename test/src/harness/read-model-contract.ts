// What the read models answer after the same operations, as one suite run against each implementation:
// the projections' SQL queries in test/src/e2e/read-model-contract.test.ts, the in-memory folds of the
// unit tier in test/src/unit/in-memory-read-models.unit.test.ts. The unit tier's operation tests stand on
// the in-memory read models only as far as this suite holds for both (as event-store-contract.ts does
// for the log). The events come from real operations on the pipeline; each answer is checked against
// what the operation was given and against the events it wrote.
import { publicKeyBase64url, generateSigningKey } from '@tributary/infra';
import {
  catalogueOperations,
  execute,
  initializeInstance,
  type FederationReadModels,
  type Principal,
  type ReadModels,
  type Services,
  type StoredEvent,
} from '@tributary/services';
import { randomUUID } from 'node:crypto';
import * as images from './images.js';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';

export interface ReadModelSubject {
  /** Services whose log and reads are the implementation under test; its other ports are the unit tier's. */
  services: Services;
  /** The instance's public key (unpadded base64url), as composeInstance gives it to initializeInstance. */
  publicKey: string;
  close(): Promise<void>;
}

const BASE_URL = 'https://contract.tributary.test';
const PASSWORD = 'correct horse battery staple';
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Account {
  accountId: string;
  agentId: string;
  principal: Extract<Principal, { kind: 'session' }>;
}

export function readModelContract(name: string, open: () => Promise<ReadModelSubject>): void {
  describe(`read-model contract: ${name}`, () => {
    let subject: ReadModelSubject;
    let operator: Account;
    const services = () => subject.services;
    const read = (): Pick<ReadModels, 'instance' | 'agents' | 'accounts' | 'tokens' | 'oauth' | 'builder'> & {
      manifests: ReadModels['manifests'];
      federation: FederationReadModels;
    } => {
      const s = services();
      return {
        instance: s.instance.read,
        agents: s.agents.read,
        accounts: s.accounts.read,
        tokens: s.tokens.read,
        oauth: s.oauth.read,
        builder: s.builder.read,
        manifests: s.manifests.read,
        federation: s.federation!.read,
      };
    };

    /** Runs a catalogue operation through the pipeline; its result, or it throws. */
    const run = async <O = Record<string, unknown>>(
      op: string,
      input: unknown,
      principal: Principal,
      options: { recorded?: boolean } = {},
    ): Promise<O> => {
      const operation = catalogueOperations().find((o) => o.name === op);
      if (!operation) throw new Error(`no operation ${op} in the catalogue`);
      const r = await execute(services(), operation, input, principal, 'http', {
        ...(options.recorded && { provenance: {} }),
      });
      return r.result as O;
    };

    /** Handles unique to this run (a letter, then digits: no reserved word). */
    let handles = 0;
    const handle = (prefix: string) => `${prefix}${Date.now() % 100000}${++handles}`;

    const signUp = async (h: string): Promise<Account> => {
      const a = await run<{ accountId: string; agentId: string; session: { sessionId: string } }>(
        'svc.auth.sign_up',
        { handle: h, password: PASSWORD },
        { kind: 'anonymous' },
      );
      return {
        accountId: a.accountId,
        agentId: a.agentId,
        principal: {
          kind: 'session',
          sessionId: a.session.sessionId,
          accountId: a.accountId,
          agentId: a.agentId,
        },
      };
    };

    /** The one event of `type` on `stream`. */
    const eventOn = async (stream: string, type: string): Promise<StoredEvent> => {
      const found = (await services().store.readStream(stream)).filter((e) => e.type === type);
      expect(
        found.map((e) => e.type),
        `${type} on ${stream}`,
      ).toEqual([type]);
      return found[0]!;
    };

    beforeAll(async () => {
      subject = await open();
      await initializeInstance(subject.services, {
        role: 'global',
        name: 'Contract',
        baseUrl: BASE_URL,
        publicKey: subject.publicKey,
      });
      operator = await signUp('ada');
    });
    afterAll(async () => {
      await subject?.close();
    });

    test('given an initialized instance, then get() is what it was initialized with, its first account controls it, and withAgent(null) reads its primary agent', async () => {
      const instance = await read().instance.get();
      expect(instance).toEqual({
        instanceId: expect.any(String),
        role: 'global',
        name: 'Contract',
        baseUrl: BASE_URL,
        primaryAgentId: expect.any(String),
        controllers: [operator.accountId],
      });
      const both = await read().instance.withAgent(null);
      expect(both.instance).toEqual(instance);
      expect(both.agent).toEqual(await read().agents.agent(instance!.primaryAgentId));
      expect(both.agent?.agentId).toBe(instance!.primaryAgentId);
      const ada = await read().instance.withAgent(operator.agentId);
      expect(ada.agent?.agentId).toBe(operator.agentId);
    });

    test('given a sign-up, then the account reads the same by id and by handle, its person is an agent, and its session is listed', async () => {
      const h = handle('bea');
      const bea = await signUp(h);
      const registered = await eventOn(`account-${bea.accountId}`, 'account.registered');
      const account = await read().accounts.accountById(bea.accountId);
      expect(account).toEqual({
        accountId: bea.accountId,
        agentId: bea.agentId,
        email: null,
        handle: h,
        createdAt: registered.occurredAt,
        emailVerifiedAt: null,
        timeZone: null,
      });
      expect(await read().accounts.accountByIdentifier(h)).toEqual(account);
      expect(await read().accounts.accountByIdentifier(`${h}x`)).toBeNull();
      expect(await read().accounts.accountById(randomUUID())).toBeNull();
      const agent = await read().agents.agent(bea.agentId);
      expect(agent).toMatchObject({ agentId: bea.agentId, handle: h, ownerAgentId: null, deletedAt: null });
      expect(agent?.createdAt).toMatch(ISO);
      const sessions = await read().tokens.sessionsOf(bea.accountId);
      expect(sessions).toEqual([
        {
          sessionId: bea.principal.sessionId,
          startedAt: expect.stringMatching(ISO),
          expiresAt: expect.stringMatching(ISO),
          endedAt: null,
        },
      ]);
      expect(Date.parse(sessions[0]!.expiresAt)).toBeGreaterThan(Date.parse(sessions[0]!.startedAt));
    });

    test('given a person who chooses a time zone and then none, then their account reads each choice, and another account none', async () => {
      const cleo = await signUp(handle('cleo'));
      const dan = await signUp(handle('dan'));
      await run('svc.account.set_time_zone', { timeZone: 'America/Sao_Paulo' }, cleo.principal);
      expect((await read().accounts.accountById(cleo.accountId))?.timeZone).toBe('America/Sao_Paulo');
      expect((await read().accounts.accountById(dan.accountId))?.timeZone).toBeNull();
      await run('svc.account.set_time_zone', { timeZone: null }, cleo.principal);
      expect((await read().accounts.accountById(cleo.accountId))?.timeZone).toBeNull();
    });

    test('given two personas of one person and one deleted, then personasOf lists the living ones in creation order (the deleted too when asked), and the deleted one reads as no agent', async () => {
      const owner = await signUp(handle('opal'));
      const cookHandle = handle('cook');
      const cook = await run<{ agentId: string }>(
        'svc.agent.create_persona',
        { name: 'Cook', handle: cookHandle },
        owner.principal,
      );
      const baker = await run<{ agentId: string }>(
        'svc.agent.create_persona',
        { name: 'Baker' },
        owner.principal,
      );
      const created = await eventOn(`agent-${cook.agentId}`, 'agent.created');
      expect(await read().agents.agent(cook.agentId)).toEqual({
        agentId: cook.agentId,
        kind: 'persona',
        name: 'Cook',
        handle: cookHandle,
        ownerAgentId: owner.agentId,
        bio: null,
        avatarUrl: null,
        placeholder: false,
        origin: created.origin,
        createdAt: created.occurredAt,
        deletedAt: null,
      });
      // Creation order, then agent id: two personas made in one millisecond still list the same way.
      const made = [await read().agents.agent(cook.agentId), await read().agents.agent(baker.agentId)];
      const order = made
        .map((a) => a!)
        .sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.agentId, b.agentId))
        .map((a) => a.name);
      expect((await read().agents.personasOf(owner.agentId)).map((p) => p.name)).toEqual(order);
      await run(
        'svc.agent.delete_persona',
        { targetAgentId: baker.agentId, password: PASSWORD },
        owner.principal,
      );
      expect((await read().agents.personasOf(owner.agentId)).map((p) => p.name)).toEqual(['Cook']);
      const all = await read().agents.personasOf(owner.agentId, { includeDeleted: true });
      expect(all.map((p) => [p.name, p.deletedAt === null])).toEqual(order.map((n) => [n, n === 'Cook']));
      expect(all.find((p) => p.name === 'Baker')!.deletedAt).toMatch(ISO);
      expect(await read().agents.agent(baker.agentId)).toBeNull();
      expect((await read().instance.withAgent(baker.agentId)).agent).toBeNull();
      expect(await read().agents.personasOf(randomUUID())).toEqual([]);
    });

    test('given a token issued for a persona and then revoked, then tokensOf and tokenByJti agree on it, before and after', async () => {
      const owner = await signUp(handle('opal'));
      const persona = await run<{ agentId: string }>(
        'svc.agent.create_persona',
        { name: 'Bot' },
        owner.principal,
      );
      await run(
        'svc.tokens.issue',
        { targetAgentId: persona.agentId, label: 'kitchen bot', scopes: ['svc.profile.read'] },
        owner.principal,
      );
      const [listed, ...more] = await read().tokens.tokensOf(owner.accountId);
      expect(more).toEqual([]);
      expect(listed).toEqual({
        jti: expect.any(String),
        accountId: owner.accountId,
        agentId: owner.agentId,
        personaId: persona.agentId,
        scopes: ['svc.profile.read'],
        audience: expect.any(String),
        label: 'kitchen bot',
        client: null,
        createdAt: expect.stringMatching(ISO),
        expiresAt: expect.stringMatching(ISO),
        revokedAt: null,
        personaDeletedAt: null,
        lastUsedAt: null,
        lastUsedClient: null,
      });
      const { lastUsedAt: _u, lastUsedClient: _c, ...token } = listed!;
      expect(await read().tokens.tokenByJti(listed!.jti)).toEqual(token);
      expect(await read().tokens.tokenByJti(randomUUID())).toBeNull();
      await run('svc.tokens.revoke', { jti: listed!.jti }, owner.principal);
      const revoked = await read().tokens.tokenByJti(listed!.jti);
      expect(revoked?.revokedAt).toMatch(ISO);
      expect((await read().tokens.tokensOf(owner.accountId)).map((t) => t.revokedAt)).toEqual([
        revoked!.revokedAt,
      ]);
    });

    test('given recorded calls, then provenance lists them newest first by controller and by actor, and pages with before', async () => {
      const who = await signUp(handle('bea'));
      await run('svc.profile.update', { bio: 'first' }, who.principal, { recorded: true });
      await run('svc.profile.update', { bio: 'second' }, who.principal, { recorded: true });
      const byController = await read().tokens.provenance({ controllerAccountId: who.accountId, limit: 10 });
      expect(byController.map((p) => [p.tool, p.controllerAccountId, p.actorId])).toEqual([
        ['svc.profile.update', who.accountId, who.agentId],
        ['svc.profile.update', who.accountId, who.agentId],
      ]);
      expect(byController[0]!.entryId > byController[1]!.entryId).toBe(true);
      expect(byController[0]).toMatchObject({
        surface: 'http',
        authMode: expect.any(String),
        tokenJti: null,
      });
      expect(await read().tokens.provenance({ actorId: who.agentId, limit: 10 })).toEqual(byController);
      expect(
        await read().tokens.provenance({
          controllerAccountId: who.accountId,
          limit: 10,
          before: byController[0]!.entryId,
        }),
      ).toEqual([byController[1]]);
      expect(await read().tokens.provenance({ controllerAccountId: who.accountId, limit: 1 })).toEqual([
        byController[0],
      ]);
    });

    test('given a registered OAuth client, then oauthClient reads it as registered, and no grants yet', async () => {
      const registered = await run<{ client_id: string }>(
        'svc.oauth.register',
        {
          client_name: 'Notes app',
          client_uri: 'https://notes.example/about',
          redirect_uris: ['https://notes.example/cb'],
          token_endpoint_auth_method: 'none',
        },
        { kind: 'anonymous' },
      );
      const client = await read().oauth.oauthClient(registered.client_id);
      expect(client).toMatchObject({
        clientId: registered.client_id,
        clientName: 'Notes app',
        clientUri: 'https://notes.example/about',
        redirectUris: ['https://notes.example/cb'],
      });
      expect(client?.registeredAt).toMatch(ISO);
      expect(await read().oauth.oauthClient(randomUUID())).toBeNull();
      expect(await read().oauth.oauthGrantsOf(operator.accountId)).toEqual([]);
    });

    test('given a registered peer, then peer, peers and peerByKeyId read it as register_peer answered', async () => {
      const publicKey = publicKeyBase64url(generateSigningKey().publicKey);
      const keyId = services().federation!.keys.keyIdOf(publicKey);
      const peerId = randomUUID();
      const answer = await run<{ peer: unknown }>(
        'svc.federation.register_peer',
        { peerId, baseUrl: 'https://one.example', role: 'person', publicKey, secret: 's'.repeat(32) },
        operator.principal,
      );
      const peer = await read().federation.peer(peerId);
      expect(peer).toMatchObject({ peerId, baseUrl: 'https://one.example', role: 'person', blocked: false });
      expect(peer).toMatchObject(
        Object.fromEntries(Object.entries(answer).filter(([k]) => k in (peer ?? {}))),
      );
      expect((await read().federation.peers()).filter((p) => p.peerId === peerId)).toEqual([peer]);
      expect(await read().federation.peerByKeyId(keyId)).toEqual({ peer, key: peer!.keys[0] });
      expect(peer!.keys.map((k) => k.keyId)).toEqual([keyId]);
      expect(await read().federation.peerByKeyId(`${keyId}x`)).toBeNull();
      expect(await read().federation.peer(randomUUID())).toBeNull();
      // The public node status's view: the peer listed (with no keys, errors or cursors), all counted.
      const open = await read().federation.nodeStatusPeers(200);
      const listed = open.peers.filter((p) => p.peerId === peerId);
      expect(listed).toEqual([
        {
          peerId,
          role: 'person',
          baseUrl: 'https://one.example',
          state: listed[0]?.state,
          lastContactAt: null,
        },
      ]);
      expect(['unknown', 'failing']).toContain(listed[0]!.state);
      expect(open.count).toBe((await read().federation.peers()).filter((p) => !p.blocked).length);
    });

    test('given a manifest publication set and withdrawn, then agentPublication follows it', async () => {
      const who = await signUp(handle('bea'));
      expect(await read().manifests.agentPublication(who.agentId)).toBeNull();
      await run('svc.manifest.set_publication', { published: true }, who.principal);
      const on = await read().manifests.agentPublication(who.agentId);
      expect(on).toEqual({ published: true, updatedAt: expect.stringMatching(ISO) });
      await run('svc.manifest.set_publication', { published: false }, who.principal);
      expect(await read().manifests.agentPublication(who.agentId)).toMatchObject({ published: false });
    });

    test('given a default site previewed and published, then site, sitesOf, draft, versionsOf and version agree', async () => {
      const who = await signUp(handle('opal'));
      const preview = await run<{ siteId: string; versionId: string }>(
        'svc.builder.preview',
        {},
        who.principal,
      );
      const published = await run<{ versionId: string; published: boolean }>(
        'svc.builder.publish',
        { siteId: preview.siteId },
        who.principal,
      );
      expect(published).toMatchObject({ versionId: preview.versionId, published: true });
      const site = await read().builder.site(preview.siteId);
      expect(site).toMatchObject({
        siteId: preview.siteId,
        ownerAgentId: who.agentId,
        isDefault: true,
        publishedVersionId: preview.versionId,
        publishedAt: expect.stringMatching(ISO),
      });
      expect(await read().builder.sitesOf(who.agentId)).toEqual([site]);
      const draft = await read().builder.draft(preview.siteId);
      expect(draft).toMatchObject({ siteId: preview.siteId, revision: site!.draftRevision });
      expect(draft?.updatedAt).toMatch(ISO);
      const versions = await read().builder.versionsOf(preview.siteId, { limit: 10 });
      expect(versions.map((v) => v.versionId)).toEqual([preview.versionId]);
      const version = await read().builder.version(preview.siteId, preview.versionId);
      expect(version).toMatchObject(versions[0]!);
      expect(version!.manifest.length).toBeGreaterThan(0);
      expect(await read().builder.site(randomUUID())).toBeNull();
      expect(await read().builder.version(preview.siteId, randomUUID())).toBeNull();
    });

    test('given publishes, a rollback, a restore and a suspension lifted, then historyOf lists them newest first with what each replaced, a page at a time', async () => {
      const who = await signUp(handle('opal'));
      const first = await run<{ siteId: string; versionId: string }>(
        'svc.builder.publish',
        {},
        who.principal,
      );
      const { siteId } = first;
      const draft = (await read().builder.draft(siteId))!;
      const page = { path: '/', title: 'Home', blocks: [{ type: 'text', markdown: 'The second menu.' }] };
      await run(
        'svc.builder.save_draft',
        { siteId, revision: draft.revision, document: { ...draft.document, pages: [page] } },
        who.principal,
      );
      const second = await run<{ versionId: string }>('svc.builder.publish', { siteId }, who.principal);
      await run('svc.builder.rollback', { siteId, versionId: first.versionId }, who.principal);
      const restored = await run<{ revision: number }>(
        'svc.builder.restore_version',
        { siteId, versionId: first.versionId },
        who.principal,
      );
      // The operator suspends the site and lifts it: no version, the reason kept, the operator the actor.
      await run('svc.builder.suspend_site', { siteId, reason: 'Spam pages' }, operator.principal);
      await run('svc.builder.unsuspend_site', { siteId }, operator.principal);
      const history = await read().builder.historyOf(siteId, { limit: 10 });
      const publishedAt = async (versionId: string) =>
        (await read().builder.version(siteId, versionId))!.publishedAt;
      const [firstAt, secondAt] = [await publishedAt(first.versionId), await publishedAt(second.versionId)];
      const suspension = (action: 'suspended' | 'unsuspended', reason: string | null) => ({
        seq: expect.any(Number),
        action,
        versionId: null,
        versionPublishedAt: null,
        replacedVersionId: null,
        replacedVersionPublishedAt: null,
        actorId: operator.agentId,
        at: expect.stringMatching(ISO),
        draftRevision: null,
        reason,
      });
      expect(history).toEqual([
        suspension('unsuspended', null),
        suspension('suspended', 'Spam pages'),
        {
          seq: expect.any(Number),
          action: 'restored',
          versionId: first.versionId,
          versionPublishedAt: firstAt,
          replacedVersionId: null,
          replacedVersionPublishedAt: null,
          actorId: who.agentId,
          at: expect.stringMatching(ISO),
          // The revision the restore saved, which an undo looks for (docs/builder.md#undo).
          draftRevision: restored.revision,
          reason: null,
        },
        {
          seq: expect.any(Number),
          action: 'rolled_back',
          versionId: first.versionId,
          versionPublishedAt: firstAt,
          replacedVersionId: second.versionId,
          replacedVersionPublishedAt: secondAt,
          actorId: who.agentId,
          at: expect.stringMatching(ISO),
          draftRevision: null,
          reason: null,
        },
        {
          seq: expect.any(Number),
          action: 'published',
          versionId: second.versionId,
          versionPublishedAt: secondAt,
          replacedVersionId: first.versionId,
          replacedVersionPublishedAt: firstAt,
          actorId: who.agentId,
          at: secondAt,
          draftRevision: null,
          reason: null,
        },
        {
          seq: expect.any(Number),
          action: 'published',
          versionId: first.versionId,
          versionPublishedAt: firstAt,
          replacedVersionId: null,
          replacedVersionPublishedAt: null,
          actorId: who.agentId,
          at: firstAt,
          draftRevision: null,
          reason: null,
        },
      ]);
      const seqs = history.map((h) => h.seq);
      expect([...seqs].sort((a, b) => b - a)).toEqual(seqs);
      expect(await read().builder.historyOf(siteId, { limit: 2, before: history[3]!.seq })).toEqual(
        history.slice(4, 6),
      );
      expect(await read().builder.historyOf(randomUUID(), { limit: 10 })).toEqual([]);
    });

    test('given a rollback back, a restore and a rollback forward, then restoreSaving, historyOf by restoresOf and lastRollbackBack answer what the history holds', async () => {
      const who = await signUp(handle('ivy'));
      const first = await run<{ siteId: string; versionId: string }>(
        'svc.builder.publish',
        {},
        who.principal,
      );
      const { siteId } = first;
      expect(await read().builder.lastRollbackBack(siteId)).toBeNull();
      const draft = (await read().builder.draft(siteId))!;
      const page = { path: '/', title: 'Home', blocks: [{ type: 'text', markdown: 'The second menu.' }] };
      await run(
        'svc.builder.save_draft',
        { siteId, revision: draft.revision, document: { ...draft.document, pages: [page] } },
        who.principal,
      );
      const second = await run<{ versionId: string }>('svc.builder.publish', { siteId }, who.principal);
      await run('svc.builder.rollback', { siteId, versionId: first.versionId }, who.principal);
      const restored = await run<{ revision: number }>(
        'svc.builder.restore_version',
        { siteId, versionId: first.versionId },
        who.principal,
      );
      // Forward again: not back, so the last rollback back stays the first one.
      await run('svc.builder.rollback', { siteId, versionId: second.versionId }, who.principal);
      const history = await read().builder.historyOf(siteId, { limit: 10 });
      const [forward, restore, back] = history;
      expect(restore).toMatchObject({ action: 'restored', draftRevision: restored.revision });
      expect(back).toMatchObject({ action: 'rolled_back', versionId: first.versionId });
      expect(await read().builder.restoreSaving(siteId, restored.revision)).toEqual(restore);
      expect(await read().builder.restoreSaving(siteId, restored.revision - 1)).toBeNull();
      expect(await read().builder.restoreSaving(randomUUID(), restored.revision)).toBeNull();
      expect(await read().builder.historyOf(siteId, { limit: 10, restoresOf: first.versionId })).toEqual([
        restore,
      ]);
      expect(await read().builder.historyOf(siteId, { limit: 10, restoresOf: second.versionId })).toEqual([]);
      expect(
        await read().builder.historyOf(siteId, {
          limit: 10,
          restoresOf: first.versionId,
          before: restore!.seq,
        }),
      ).toEqual([]);
      const revisionOf = async (versionId: string) =>
        (await read().builder.version(siteId, versionId))!.draftRevision;
      const [firstRevision, secondRevision] = [
        await revisionOf(first.versionId),
        await revisionOf(second.versionId),
      ];
      expect(forward).toMatchObject({ action: 'rolled_back', versionId: second.versionId });
      expect(await read().builder.lastRollbackBack(siteId)).toEqual({
        entry: back,
        replacedDraftRevision: secondRevision,
        // What was put online or into the draft since, the rollback's own target included: each once.
        draftRevisionsSince: [firstRevision, secondRevision],
      });
      expect(await read().builder.lastRollbackBack(randomUUID())).toBeNull();
    });

    test('given publishes and rollbacks stamped the same millisecond, then lastRollbackBack takes the version from the older draft revision as the earlier', async () => {
      const who = await signUp(handle('kit'));
      const { siteId } = await run<{ siteId: string }>('svc.builder.preview', {}, who.principal);
      const save = async (markdown: string) => {
        const draft = (await read().builder.draft(siteId))!;
        const page = { path: '/', title: 'Home', blocks: [{ type: 'text', markdown }] };
        await run(
          'svc.builder.save_draft',
          { siteId, revision: draft.revision, document: { ...draft.document, pages: [page] } },
          who.principal,
        );
      };
      // Date frozen: every event below carries the same time, as an agent's burst can.
      vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-07T02:30:00.000Z') });
      try {
        await save('Leek soup');
        const good = await run<{ versionId: string }>('svc.builder.publish', { siteId }, who.principal);
        await save('Leak soup');
        const typo = await run<{ versionId: string }>('svc.builder.publish', { siteId }, who.principal);
        await run('svc.builder.rollback', { siteId, versionId: good.versionId }, who.principal);
        const [back] = await read().builder.historyOf(siteId, { limit: 1 });
        expect(back!.versionPublishedAt).toBe(back!.replacedVersionPublishedAt);
        const expected = {
          entry: back,
          replacedDraftRevision: (await read().builder.version(siteId, typo.versionId))!.draftRevision,
          draftRevisionsSince: [(await read().builder.version(siteId, good.versionId))!.draftRevision],
        };
        expect(await read().builder.lastRollbackBack(siteId)).toEqual(expected);
        // Forward to the typo, the same millisecond: not back, so the answer stays.
        await run('svc.builder.rollback', { siteId, versionId: typo.versionId }, who.principal);
        expect(await read().builder.lastRollbackBack(siteId)).toEqual({
          ...expected,
          draftRevisionsSince: [expected.draftRevisionsSince[0], expected.replacedDraftRevision],
        });
      } finally {
        vi.useRealTimers();
      }
    });

    test('given two forms and one deleted, then formsOf lists the living one, form reads it as create_form answered, and no submissions', async () => {
      const who = await signUp(handle('opal'));
      const fields = [
        { type: 'text', name: 'name', label: 'Name', required: true },
        { type: 'email', name: 'email', label: 'Email' },
      ];
      const kept = (
        await run<{ form: { formId: string } }>(
          'svc.builder.create_form',
          { name: 'Contact', fields },
          who.principal,
        )
      ).form;
      const gone = (
        await run<{ form: { formId: string } }>(
          'svc.builder.create_form',
          { name: 'Old', fields },
          who.principal,
        )
      ).form;
      await run('svc.builder.delete_form', { formId: gone.formId }, who.principal);
      const form = await read().builder.form(kept.formId);
      expect(form).toEqual(kept);
      expect(await read().builder.formsOf(who.agentId)).toEqual([form]);
      expect(await read().builder.form(gone.formId)).toBeNull();
      expect(await read().builder.submissionsOf(kept.formId, { limit: 10 })).toEqual([]);
      expect(await read().builder.sitesPublishingForm(kept.formId)).toEqual([]);
    });

    test('given a form on two drafts, one of them in columns, and taken off a third, then sitesDraftingForm names the sites whose draft holds it now, in sitesOf order', async () => {
      const who = await signUp(handle('rue'));
      const fields = [{ type: 'text', name: 'name', label: 'Name', required: true }];
      const { form } = await run<{ form: { formId: string } }>(
        'svc.builder.create_form',
        { name: 'Contact', fields },
        who.principal,
      );
      const place = async (siteId: string, blocks: unknown[]) => {
        const draft = (await read().builder.draft(siteId))!;
        await run(
          'svc.builder.save_draft',
          {
            siteId,
            revision: draft.revision,
            document: { ...draft.document, pages: [{ path: '/', title: 'Home', blocks }] },
          },
          who.principal,
        );
      };
      const site = async (title: string) =>
        (await run<{ siteId: string }>('svc.builder.create_site', { title }, who.principal)).siteId;
      const [home, shop, blog] = [await site('Home'), await site('Shop'), await site('Blog')];
      const formBlock = { type: 'form', formId: form.formId };
      await place(blog, [{ type: 'columns', columns: [{ blocks: [formBlock] }, { blocks: [] }] }]);
      await place(home, [formBlock]);
      await place(shop, [formBlock]);
      // Taken off the shop's draft: an older revision holds it, the head does not.
      await place(shop, [{ type: 'text', markdown: 'No form here.' }]);
      // sitesOf's order (created_at, then site_id): sites made in one millisecond sort by their ids.
      const order = (await read().builder.sitesOf(who.agentId)).map((s) => s.siteId);
      expect([...order].sort()).toEqual([home, shop, blog].sort());
      expect(await read().builder.sitesDraftingForm(who.agentId, form.formId)).toEqual(
        order.filter((id) => id === home || id === blog),
      );
      expect(await read().builder.sitesDraftingForm(operator.agentId, form.formId)).toEqual([]);
      expect(await read().builder.sitesDraftingForm(who.agentId, randomUUID())).toEqual([]);
    });

    test('given two pictures uploaded and one deleted, then mediaItem, mediaOf, mediaHeld and renderMedia agree on the living one', async () => {
      const who = await signUp(handle('bea'));
      const upload = async (bytes: Buffer, filename: string) =>
        (
          await run<{ media: { mediaId: string } }>(
            'svc.builder.upload_media',
            { content: bytes.toString('base64'), filename },
            who.principal,
          )
        ).media;
      const kept = await upload(await images.png(), 'kept.png');
      const gone = await upload(await images.jpegWithGps(), 'gone.jpg');
      await run('svc.builder.delete_media', { mediaId: gone.mediaId }, who.principal);
      const item = await read().builder.mediaItem(kept.mediaId);
      expect(item).toEqual(kept);
      expect(await read().builder.mediaItem(gone.mediaId)).toBeNull();
      expect(await read().builder.mediaOf(who.agentId, { limit: 10 })).toEqual([item]);
      expect(await read().builder.mediaHeld(who.agentId, [gone.mediaId, kept.mediaId, randomUUID()])).toEqual(
        [kept.mediaId],
      );
      expect(await read().builder.renderMedia(who.agentId, [kept.mediaId, gone.mediaId])).toEqual([item]);
      expect(await read().builder.mediaOf(operator.agentId, { limit: 10, before: kept.mediaId })).toEqual([]);
    });
  });
}
