// The assistant's attachments end to end on a real instance over PostgreSQL: pictures posted over REST as
// multipart/form-data (real HTTP, as a browser form sends them) and over MCP as base64 through the
// official SDK client; the stored bytes on disk without metadata; refusals with their codes that write
// nothing (the log, the read model and the blob files checked); the owner-checked load the chat turn
// loop uses; a restart and the read model rebuilt from the log. The instance runs with small limits
// (256 KiB, 40,000 pixels) so the refusals need only small pictures.
import { rebuildProjections } from '@tributary/infra';
import { assistantAttachmentsProjection } from '@tributary/projections';
import { loadAttachmentForModel } from '@tributary/services';
import { images, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';

const MAX_BYTES = 256 * 1024;
const MAX_PIXELS = 40_000;

describe('assistant attachments', () => {
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;

  /** Every blob file on disk (temporary files excluded), by path. */
  const blobFiles = async (): Promise<string[]> => {
    const root = join(instance.dataDir, 'blobs');
    const dirs = await readdir(root).catch(() => [] as string[]);
    const files: string[] = [];
    for (const d of dirs)
      for (const f of await readdir(join(root, d))) if (!f.startsWith('.tmp-')) files.push(join(root, d, f));
    return files.sort();
  };
  const blobOf = (sha256: string) =>
    readFile(join(instance.dataDir, 'blobs', sha256.slice(0, 2), sha256.slice(2)));
  /** What a refusal must leave alone: the log (less provenance entries), the read model, the blob files. */
  const footprint = async () => {
    const pool = instance.instance.pool;
    const events = await pool.query(`SELECT count(*) AS n FROM events WHERE type <> 'provenance.recorded'`);
    const rows = await pool.query('SELECT * FROM rm_assistant_attachments ORDER BY attachment_id');
    return { events: Number(events.rows[0].n), attachments: rows.rows, blobs: await blobFiles() };
  };
  const addedEvent = async (attachmentId: string) => {
    const { rows } = await instance.instance.pool.query(
      `SELECT stream, actor_id, envelope::jsonb -> 'data' AS data FROM events WHERE type = 'assistant.attachment_added' AND stream = $1`,
      [`aattach-${attachmentId}`],
    );
    assert.equal(rows.length, 1);
    return rows[0] as { stream: string; actor_id: string; data: Loose };
  };

  const form = (bytes: Buffer, filename: string, type = 'application/octet-stream', fields: Loose = {}) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, String(v));
    f.append('file', new Blob([bytes], { type }), filename);
    return f;
  };
  const post = async (who: Person | null, body: FormData | string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${instance.url}/api/autobot/attachments`, {
      method: 'POST',
      headers: { ...(who && { cookie: who.browser.cookie }), ...headers },
      body,
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : undefined) as Loose, headers: res.headers };
  };

  beforeAll(async () => {
    instance = await startTestInstance({
      env: {
        ASSISTANT_ATTACHMENT_MAX_BYTES: String(MAX_BYTES),
        ASSISTANT_ATTACHMENT_MAX_PIXELS: String(MAX_PIXELS),
      },
    });
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a PNG, a JPEG, a WebP and a GIF, each sent under a misleading name and type, then 201 with the type from the bytes, recorded for the acting agent', async () => {
    const cases: [Buffer, string, [string, number, number]][] = [
      [await images.png(40, 30), 'photo.jpg', ['image/png', 40, 30]],
      [await images.jpegWithP3Profile(), 'x.png', ['image/jpeg', 40, 30]],
      [await images.webp(42, 32), 'x.gif', ['image/webp', 42, 32]],
      // An animation keeps its first frame.
      [await images.animatedGif(3, 20, 10), 'x.webp', ['image/gif', 20, 10]],
    ];
    for (const [bytes, name, [type, width, height]] of cases) {
      const r = await post(ada, form(bytes, name, 'image/svg+xml'));
      assert.equal(r.status, 201, JSON.stringify(r.json));
      const a = r.json.result;
      assert.deepEqual(Object.keys(a).sort(), ['attachmentId', 'bytes', 'height', 'mediaType', 'width']);
      assert.deepEqual([a.mediaType, a.width, a.height], [type, width, height], name);
      const e = await addedEvent(a.attachmentId);
      assert.deepEqual([e.data.ownerAgentId, e.actor_id, e.data.mediaType], [ada.agentId, ada.agentId, type]);
      const stored = await blobOf(e.data.blobKey);
      assert.equal(stored.length, a.bytes);
      const seen = await images.describeImage(stored);
      assert.deepEqual(
        [`image/${seen.format}`, seen.width, seen.height, seen.pages],
        [type, width, height, 1],
      );
    }
  });

  test('given a JPEG with EXIF (GPS, camera, orientation), then what is stored and what the model is handed carries no metadata, upright', async () => {
    const original = await images.jpegWithGps();
    assert.ok((await images.describeImage(original)).exif, 'the upload carries EXIF');
    const r = await post(ada, form(original, 'beach.jpg', 'image/jpeg'));
    assert.equal(r.status, 201);
    const a = r.json.result;
    assert.deepEqual([a.mediaType, a.width, a.height], ['image/jpeg', 32, 64]);
    const e = await addedEvent(a.attachmentId);
    const onDisk = await blobOf(e.data.blobKey);
    const loaded = await loadAttachmentForModel(instance.instance.services, ada.agentId, a.attachmentId);
    assert.equal(loaded.mediaType, 'image/jpeg');
    assert.ok(Buffer.from(loaded.data).equals(onDisk), 'the model gets the stored bytes');
    for (const bytes of [onDisk, Buffer.from(loaded.data)]) {
      const m = await images.describeImage(bytes);
      assert.deepEqual(
        { exif: m.exif, icc: m.icc, xmp: m.xmp, iptc: m.iptc, orientation: m.orientation },
        { exif: undefined, icc: undefined, xmp: undefined, iptc: undefined, orientation: undefined },
      );
      for (const mark of images.GPS_MARKS) assert.equal(bytes.includes(mark), false, `${mark} is gone`);
    }
  });

  test('given the same picture twice, then 200 with the same attachment and nothing more written', async () => {
    const bytes = await images.png(50, 40, '#123456');
    const first = await post(ada, form(bytes, 'one.png'));
    assert.equal(first.status, 201);
    const before = await footprint();
    const again = await post(ada, form(bytes, 'two.png'));
    assert.deepEqual([again.status, again.json.result], [200, first.json.result]);
    assert.deepEqual(await footprint(), before);
  });

  test('given an upload over ASSISTANT_ATTACHMENT_MAX_BYTES, declared or cut off mid-stream, then 413 assistant.attachment_too_large and nothing written', async () => {
    const before = await footprint();
    // Declared past the limit and the multipart overhead: refused before a byte of the body is read.
    const declared = await post(ada, form(Buffer.alloc(MAX_BYTES + 32 * 1024, 1), 'big.png', 'image/png'));
    assert.deepEqual([declared.status, declared.json.code], [413, 'assistant.attachment_too_large']);
    assert.equal(declared.json.maxBytes, MAX_BYTES);
    assert.match(declared.headers.get('content-type') ?? '', /application\/problem\+json/);
    // One byte over, within the overhead: cut off when the file part passes the limit.
    const oneOver = await post(ada, form(Buffer.alloc(MAX_BYTES + 1, 1), 'big.png', 'image/png'));
    assert.deepEqual([oneOver.status, oneOver.json.code], [413, 'assistant.attachment_too_large']);
    // A real picture of that size.
    const noisy = await images.noisyPng(320, 320);
    assert.ok(noisy.length > MAX_BYTES, `${noisy.length} bytes`);
    const real = await post(ada, form(noisy, 'noise.png', 'image/png'));
    assert.deepEqual([real.status, real.json.code], [413, 'assistant.attachment_too_large']);
    assert.deepEqual(await footprint(), before);
  });

  test('given a picture over ASSISTANT_ATTACHMENT_MAX_PIXELS, wider than 8,000 pixels, or a decompression bomb, then 413 assistant.attachment_too_many_pixels and nothing written', async () => {
    const before = await footprint();
    const cases: Buffer[] = [
      await images.png(201, 200),
      await images.png(8_001, 1),
      images.pngClaiming(60_000, 60_000),
    ];
    for (const bytes of cases) {
      const r = await post(ada, form(bytes, 'x.png', 'image/png'));
      assert.deepEqual([r.status, r.json.code], [413, 'assistant.attachment_too_many_pixels']);
    }
    assert.deepEqual(await footprint(), before);
  });

  test('given text, an SVG or AVIF claiming to be a PNG, HEIC, or a truncated PNG, then 400 with the stable code and nothing written', async () => {
    const before = await footprint();
    const png = await images.png(60, 60);
    const cases: [Buffer, string, string][] = [
      [Buffer.from('just some text\n'), 'x.png', 'assistant.attachment_unsupported_type'],
      [images.svgWithScript(), 'x.png', 'assistant.attachment_unsupported_type'],
      [await images.avif(), 'x.png', 'assistant.attachment_unsupported_type'],
      [images.heicSignature(), 'x.jpg', 'assistant.attachment_unsupported_type'],
      [png.subarray(0, png.length - 40), 'x.png', 'assistant.attachment_unreadable'],
    ];
    for (const [bytes, name, code] of cases) {
      const r = await post(ada, form(bytes, name, 'image/png'));
      assert.deepEqual([r.status, r.json.code], [400, code], name);
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
    assert.deepEqual(await footprint(), before);
  });

  test('given a body that is not one file part, then 400 assistant.attachment_upload_malformed and nothing written', async () => {
    const before = await footprint();
    const png = await images.png();
    const two = form(png, 'a.png');
    two.append('file', new Blob([png]), 'b.png');
    const wrongName = new FormData();
    wrongName.append('image', new Blob([png]), 'a.png');
    const noFile = new FormData();
    noFile.append('targetAgentId', ada.agentId);
    const cases: [FormData | string, Record<string, string>][] = [
      [two, {}],
      [wrongName, {}],
      [noFile, {}],
      [form(png, 'a.png', 'image/png', { alt: 'a field the builder takes, not this route' }), {}],
      [JSON.stringify({ content: png.toString('base64') }), { 'content-type': 'application/json' }],
    ];
    for (const [body, headers] of cases) {
      const r = await post(ada, body, headers);
      assert.deepEqual([r.status, r.json.code], [400, 'assistant.attachment_upload_malformed']);
    }
    assert.deepEqual(await footprint(), before);
  });

  test('given no session, a cross-origin post, or someone else’s targetAgentId, then 401, 403 and 404, nothing written', async () => {
    const before = await footprint();
    const png = await images.png(9, 9);
    const anonymous = await post(null, form(png, 'a.png'));
    assert.deepEqual([anonymous.status, anonymous.json.code], [401, 'auth.required']);
    const crossOrigin = await post(ada, form(png, 'a.png'), { origin: 'https://evil.example' });
    assert.deepEqual([crossOrigin.status, crossOrigin.json.code], [403, 'request.cross_origin']);
    const theirs = await post(ada, form(png, 'a.png', 'image/png', { targetAgentId: bob.agentId }));
    assert.deepEqual([theirs.status, theirs.json.code], [404, 'agent.not_found']);
    assert.deepEqual(await footprint(), before);
  });

  test("given another person's attachment or an unknown id, when loaded for the model, then 404 assistant.attachment_not_found; a persona's is the persona's", async () => {
    const mine = (await post(ada, form(await images.png(21, 21, '#abcdef'), 'a.png'))).json.result;
    const services = instance.instance.services;
    for (const [owner, id] of [
      [bob.agentId, mine.attachmentId],
      [ada.agentId, '00000000-0000-8000-8000-000000000000'],
    ] as const)
      await assert.rejects(loadAttachmentForModel(services, owner, id), {
        code: 'assistant.attachment_not_found',
        kind: 'not_found',
      });
    // The same picture handed over by bob is his own attachment.
    const his = await post(bob, form(await images.png(21, 21, '#abcdef'), 'a.png'));
    assert.equal(his.status, 201);
    assert.notEqual(his.json.result.attachmentId, mine.attachmentId);

    const persona = await ada.browser.post('/api/ops/svc.agent.create_persona', { name: 'Cook' });
    const personaId = persona.json.result.agentId as string;
    const theirs = await post(
      ada,
      form(await images.png(22, 22), 'p.png', 'image/png', { targetAgentId: personaId }),
    );
    assert.equal(theirs.status, 201);
    assert.equal((await addedEvent(theirs.json.result.attachmentId)).data.ownerAgentId, personaId);
    await loadAttachmentForModel(services, personaId, theirs.json.result.attachmentId);
    await assert.rejects(loadAttachmentForModel(services, ada.agentId, theirs.json.result.attachmentId), {
      code: 'assistant.attachment_not_found',
    });
  });

  test('given MCP tokens, when an agent attaches a picture as base64 through the SDK client, then the same rules hold, within its scopes', async () => {
    const writer = await issueToken(ada, { scopes: ['svc.assistant.write'] });
    const other = await issueToken(ada, { scopes: ['svc.builder.read'] });
    const client = await mcpClient(instance.url, { bearer: writer.token });
    const readOnly = await mcpClient(instance.url, { bearer: other.token });
    try {
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'svc.assistant.add_attachment'));
      const bytes = await images.webp(30, 20);
      const a = structured(
        await client.callTool({
          name: 'svc.assistant.add_attachment',
          arguments: { content: bytes.toString('base64') },
        }),
      );
      assert.deepEqual([a.mediaType, a.width, a.height], ['image/webp', 30, 20]);
      assert.equal((await addedEvent(a.attachmentId)).data.ownerAgentId, ada.agentId);

      const before = await footprint();
      assert.equal(
        errorCodeOf(
          await readOnly.callTool({
            name: 'svc.assistant.add_attachment',
            arguments: { content: bytes.toString('base64') },
          }),
        ),
        'auth.insufficient_scope',
      );
      assert.equal(
        errorCodeOf(
          await client.callTool({
            name: 'svc.assistant.add_attachment',
            arguments: { content: images.svgWithScript().toString('base64') },
          }),
        ),
        'assistant.attachment_unsupported_type',
      );
      assert.equal(
        errorCodeOf(
          await client.callTool({
            name: 'svc.assistant.add_attachment',
            arguments: { content: Buffer.alloc(MAX_BYTES + 3, 7).toString('base64') },
          }),
        ),
        'assistant.attachment_too_large',
      );
      assert.deepEqual(await footprint(), before);
    } finally {
      await client.close();
      await readOnly.close();
    }
  });

  test('given a restart, then the attachments and their bytes are still there; the read model rebuilt from the log equals the incremental one', async () => {
    const before = await footprint();
    assert.ok(before.attachments.length >= 8);
    instance = await instance.restart();
    assert.deepEqual(await footprint(), before);
    for (const row of before.attachments as Loose[]) {
      assert.equal((await blobOf(row.blob_key)).length, row.bytes);
      const loaded = await loadAttachmentForModel(
        instance.instance.services,
        row.owner_agent_id,
        row.attachment_id,
      );
      assert.equal(loaded.data.byteLength, row.bytes);
    }
    const counts = await rebuildProjections(instance.instance.pool, [assistantAttachmentsProjection]);
    assert.ok(counts['assistant-attachments']! > 0);
    assert.deepEqual(await footprint(), before);
  });
});
