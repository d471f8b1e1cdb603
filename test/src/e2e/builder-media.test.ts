// The builder's media library end to end on a real instance over PostgreSQL: uploads over REST as
// multipart/form-data (real HTTP, as curl or a browser form sends them) and over MCP as base64 through
// the official SDK client; the stored bytes on disk; refusals that write nothing; delete refused while a
// published version shows the item; a restart; and the read model rebuilt from the log.
import { rebuildProjections } from '@tributary/infra';
import { builderMediaProjection } from '@tributary/projections';
import { images, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { request } from 'node:http';
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
import { builderFootprint } from './builder-helpers.js';

const MAX = 10 * 1024 * 1024;

describe('builder media', () => {
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
  /** What a refusal must leave alone: the log (less provenance), the media table and the blob files. */
  const footprint = async () => ({
    ...(await builderFootprint(instance.instance.pool)),
    blobs: await blobFiles(),
  });

  const form = (bytes: Buffer, filename: string, type = 'application/octet-stream', fields: Loose = {}) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, String(v));
    f.append('file', new Blob([bytes], { type }), filename);
    return f;
  };
  const postMedia = async (
    who: Person | null,
    body: FormData | string,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(`${instance.url}/api/builder/media`, {
      method: 'POST',
      headers: { ...(who && { cookie: who.browser.cookie }), ...headers },
      body,
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : undefined) as Loose, headers: res.headers };
  };

  beforeAll(async () => {
    instance = await startTestInstance();
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a JPEG with GPS posted as multipart, then 201 with the item, and the bytes on disk are the re-encoded image without metadata', async () => {
    const r = await postMedia(
      ada,
      form(await images.jpegWithGps(), '../../beach.jpg', 'image/jpeg', { alt: 'The beach' }),
    );
    assert.equal(r.status, 201, JSON.stringify(r.json));
    const { media, created } = r.json.result;
    assert.equal(created, true);
    assert.deepEqual(
      { type: media.contentType, w: media.width, h: media.height, name: media.filename, alt: media.alt },
      { type: 'image/jpeg', w: 32, h: 64, name: 'beach.jpg', alt: 'The beach' },
    );
    assert.equal(media.ownerAgentId, ada.agentId);
    const stored = await blobOf(media.sha256);
    assert.equal(stored.length, media.length);
    for (const mark of images.GPS_MARKS) assert.equal(stored.includes(mark), false, `${mark} is gone`);
    assert.equal((await images.describeImage(stored)).exif, undefined);
  });

  test('given the same image uploaded twice, then the second answers 200 with the same item and nothing more is stored', async () => {
    const bytes = await images.png(50, 40, '#123456');
    const first = await postMedia(ada, form(bytes, 'one.png', 'image/png'));
    assert.equal(first.status, 201);
    const before = await footprint();
    const again = await postMedia(ada, form(bytes, 'two.png', 'image/png'));
    assert.equal(again.status, 200);
    assert.equal(again.json.result.created, false);
    assert.deepEqual(again.json.result.media, first.json.result.media);
    assert.deepEqual(await footprint(), before);
    // Another owner's upload of the same bytes is their own item, over the same single file.
    const theirs = await postMedia(bob, form(bytes, 'b.png', 'image/png'));
    assert.equal(theirs.status, 201);
    assert.notEqual(theirs.json.result.media.mediaId, first.json.result.media.mediaId);
    assert.deepEqual((await footprint()).blobs, before.blobs);
  });

  test('given PNG bytes named x.jpg and sent as image/jpeg, then the item is a PNG', async () => {
    const r = await postMedia(ada, form(await images.png(33, 22), 'x.jpg', 'image/jpeg'));
    assert.equal(r.status, 201);
    assert.deepEqual([r.json.result.media.contentType, r.json.result.media.filename], ['image/png', 'x.jpg']);
  });

  test('given text named x.png, an SVG with a script, or a decompression bomb, then the stable code and nothing written', async () => {
    const before = await footprint();
    const cases: [Buffer, string, string, number][] = [
      [Buffer.from('just some text\n'), 'x.png', 'builder.media_unsupported_type', 400],
      [images.svgWithScript(), 'x.svg', 'builder.media_unsupported_type', 400],
      [images.svgWithScript(), 'x.png', 'builder.media_unsupported_type', 400],
      [images.pngClaiming(60_000, 60_000), 'bomb.png', 'builder.media_too_many_pixels', 413],
    ];
    for (const [bytes, name, code, status] of cases) {
      const r = await postMedia(ada, form(bytes, name, 'image/png'));
      assert.deepEqual([r.status, r.json.code], [status, code], name);
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
    assert.deepEqual(await footprint(), before);
  });

  test('given an upload over BUILDER_MEDIA_MAX_BYTES, declared or streamed without a length, then 413 builder.media_too_large and nothing written', async () => {
    const before = await footprint();
    // Declared past the limit and its overhead: refused before a byte of the body is read.
    const declared = await postMedia(ada, form(Buffer.alloc(MAX + 32 * 1024, 1), 'big.png', 'image/png'));
    assert.deepEqual([declared.status, declared.json.code], [413, 'builder.media_too_large']);
    assert.equal(declared.json.maxBytes, MAX);
    // One byte over, within the declared overhead: cut off when the file part passes the limit.
    const oneOver = await postMedia(ada, form(Buffer.alloc(MAX + 1, 1), 'big.png', 'image/png'));
    assert.deepEqual([oneOver.status, oneOver.json.code], [413, 'builder.media_too_large']);

    // Chunked, no Content-Length: refused once the file part passes the limit, mid-stream.
    const boundary = 'media-test-boundary';
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${instance.url}/api/builder/media`,
        {
          method: 'POST',
          headers: {
            cookie: ada.browser.cookie,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'transfer-encoding': 'chunked',
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      // The server answers and closes while this is still sending: a write error after the answer is expected.
      req.on('error', (e) => setTimeout(() => reject(e), 2000).unref());
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n` +
          `Content-Type: image/png\r\n\r\n`,
      );
      const chunk = Buffer.alloc(1024 * 1024, 2);
      let sent = 0;
      // Up to twice the limit, stopping early once the server has answered.
      const pump = () => {
        while (sent < 2 * MAX && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    assert.equal(answer.status, 413);
    assert.equal(JSON.parse(answer.body).code, 'builder.media_too_large');
    assert.deepEqual(await footprint(), before);
  });

  test('given a body that is not one file part, then 400 builder.media_upload_malformed and nothing written', async () => {
    const before = await footprint();
    const png = await images.png();
    const two = form(png, 'a.png');
    two.append('file', new Blob([png]), 'b.png');
    const wrongName = new FormData();
    wrongName.append('image', new Blob([png]), 'a.png');
    const noFile = new FormData();
    noFile.append('alt', 'nothing');
    const cases: [FormData | string, Record<string, string>][] = [
      [two, {}],
      [wrongName, {}],
      [noFile, {}],
      [form(png, 'a.png', 'image/png', { path: '/etc/passwd' }), {}],
      [JSON.stringify({ content: png.toString('base64') }), { 'content-type': 'application/json' }],
    ];
    for (const [body, headers] of cases) {
      const r = await postMedia(ada, body, headers);
      assert.deepEqual([r.status, r.json.code], [400, 'builder.media_upload_malformed']);
    }
    assert.deepEqual(await footprint(), before);
  });

  test('given no session, a cross-origin post, or someone else’s targetAgentId, then 401, 403 and 404, nothing written', async () => {
    const before = await footprint();
    const png = await images.png(9, 9);
    const anonymous = await postMedia(null, form(png, 'a.png'));
    assert.deepEqual([anonymous.status, anonymous.json.code], [401, 'auth.required']);
    const crossOrigin = await postMedia(ada, form(png, 'a.png'), { origin: 'https://evil.example' });
    assert.deepEqual([crossOrigin.status, crossOrigin.json.code], [403, 'request.cross_origin']);
    const theirs = await postMedia(ada, form(png, 'a.png', 'image/png', { targetAgentId: bob.agentId }));
    assert.deepEqual([theirs.status, theirs.json.code], [404, 'agent.not_found']);
    // Every field the route takes, and the file: a whole form is read, not refused as too many parts.
    const whole = await postMedia(
      ada,
      form(png, 'a.png', 'image/png', { targetAgentId: bob.agentId, alt: 'both fields' }),
    );
    assert.deepEqual([whole.status, whole.json.code], [404, 'agent.not_found']);
    assert.deepEqual(await footprint(), before);
    const list = await ada.browser.get(`/api/builder/media?targetAgentId=${bob.agentId}`);
    assert.deepEqual([list.status, list.json.code], [404, 'agent.not_found']);
  });

  test('given several items, when listed over REST, then the owner’s own, newest first, paged; someone else’s item cannot be deleted', async () => {
    const all = await ada.browser.get('/api/builder/media');
    assert.equal(all.status, 200);
    const items = all.json.result.items as Loose[];
    assert.ok(items.length >= 3);
    assert.ok(items.every((m) => m.ownerAgentId === ada.agentId));
    const page1 = await ada.browser.get('/api/builder/media?limit=2');
    assert.deepEqual(
      (page1.json.result.items as Loose[]).map((m) => m.mediaId),
      items.slice(0, 2).map((m) => m.mediaId),
    );
    const page2 = await ada.browser.get(`/api/builder/media?limit=2&before=${page1.json.result.nextBefore}`);
    assert.deepEqual(
      (page2.json.result.items as Loose[]).map((m) => m.mediaId),
      items.slice(2, 4).map((m) => m.mediaId),
    );

    const before = await footprint();
    const mediaId = items[0]!.mediaId as string;
    const byBob = await bob.browser.call('DELETE', `/api/builder/media?mediaId=${mediaId}`);
    assert.deepEqual([byBob.status, byBob.json.code], [404, 'builder.media_not_found']);
    const byBobBody = await bob.browser.call('DELETE', '/api/builder/media', { mediaId });
    assert.deepEqual([byBobBody.status, byBobBody.json.code], [404, 'builder.media_not_found']);
    assert.deepEqual(await footprint(), before);
  });

  test('given an item a published version shows, then DELETE is 409 builder.media_in_use; an unused one goes, by query or by body', async () => {
    const shown = (await postMedia(ada, form(await images.webp(64, 48), 'shown.webp'))).json.result.media;
    const site = await ada.browser.get('/api/builder/draft');
    const saved = await ada.browser.call('PUT', '/api/builder/draft', {
      revision: site.json.result.revision,
      document: {
        schemaVersion: 1,
        pages: [
          {
            path: '/',
            title: 'Home',
            blocks: [{ type: 'image', mediaId: shown.mediaId, alt: 'a picture' }],
          },
        ],
      },
    });
    assert.equal(saved.status, 201, saved.text);
    const claimed = await ada.browser.post('/api/builder/address', { label: 'ada-media' });
    assert.ok([200, 201].includes(claimed.status), claimed.text);
    const published = await ada.browser.post('/api/ops/svc.builder.publish', {});
    assert.equal(published.status, 201, published.text);

    // The published site serves the re-encoded bytes by their hash, cacheable forever.
    const path = `/sites/ada-media/_media/${shown.sha256}.webp`;
    let served = await fetch(instance.url + path);
    for (let i = 0; i < 50 && served.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      served = await fetch(instance.url + path);
    }
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/webp');
    assert.match(served.headers.get('cache-control') ?? '', /immutable/);
    assert.ok(Buffer.from(await served.arrayBuffer()).equals(await blobOf(shown.sha256)));

    const before = await footprint();
    const refused = await ada.browser.call('DELETE', '/api/builder/media', { mediaId: shown.mediaId });
    assert.deepEqual([refused.status, refused.json.code], [409, 'builder.media_in_use']);
    assert.deepEqual(refused.json.siteIds, [saved.json.result.siteId]);
    assert.deepEqual(await footprint(), before);

    const unused = (await postMedia(ada, form(await images.png(11, 11, '#0f0'), 'u.png'))).json.result.media;
    const byQuery = await ada.browser.call('DELETE', `/api/builder/media?mediaId=${unused.mediaId}`);
    assert.deepEqual(
      [byQuery.status, byQuery.json.result],
      [200, { mediaId: unused.mediaId, deleted: true }],
    );
    const unused2 = (await postMedia(ada, form(await images.png(12, 12, '#0f0'), 'u2.png'))).json.result
      .media;
    const byBody = await ada.browser.call('DELETE', '/api/builder/media', { mediaId: unused2.mediaId });
    assert.equal(byBody.status, 200);
    const left = (await ada.browser.get('/api/builder/media?limit=200')).json.result.items as Loose[];
    assert.equal(
      left.some((m) => m.mediaId === unused.mediaId || m.mediaId === unused2.mediaId),
      false,
    );
    // The bytes stay: blobs are never removed.
    assert.ok(await blobOf(unused.sha256));
  });

  test('given MCP tokens, when an agent uploads as base64 through the SDK client, then the same item rules hold, within its scopes', async () => {
    const writer = await issueToken(ada, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const reader = await issueToken(ada, { scopes: ['svc.builder.read'] });
    const client = await mcpClient(instance.url, { bearer: writer.token });
    const readOnly = await mcpClient(instance.url, { bearer: reader.token });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const name of ['svc.builder.upload_media', 'svc.builder.list_media', 'svc.builder.delete_media'])
        assert.ok(tools.includes(name), name);

      // Bigger than MAX_BODY_BYTES (1 MiB) as base64: the MCP body limit makes room for an image.
      const noise = await images.noisyPng(720, 720);
      assert.ok(noise.length > 1024 * 1024, `${noise.length} bytes`);
      const up = structured(
        await client.callTool({
          name: 'svc.builder.upload_media',
          arguments: { content: noise.toString('base64'), filename: 'noise.png', alt: 'noise' },
        }),
      );
      assert.deepEqual([up.created, up.media.contentType, up.media.width], [true, 'image/png', 720]);
      const again = structured(
        await client.callTool({
          name: 'svc.builder.upload_media',
          arguments: { content: noise.toString('base64') },
        }),
      );
      assert.deepEqual([again.created, again.media.mediaId], [false, up.media.mediaId]);
      const listed = structured(
        await readOnly.callTool({ name: 'svc.builder.list_media', arguments: { limit: 1 } }),
      );
      assert.equal(listed.items[0].mediaId, up.media.mediaId);

      const before = await footprint();
      assert.equal(
        errorCodeOf(
          await readOnly.callTool({
            name: 'svc.builder.upload_media',
            arguments: { content: (await images.png(5, 5)).toString('base64') },
          }),
        ),
        'auth.insufficient_scope',
      );
      assert.equal(
        errorCodeOf(
          await client.callTool({
            name: 'svc.builder.upload_media',
            arguments: { content: images.svgWithScript().toString('base64'), filename: 'x.png' },
          }),
        ),
        'builder.media_unsupported_type',
      );
      assert.equal(
        errorCodeOf(
          await client.callTool({
            name: 'svc.builder.delete_media',
            arguments: { mediaId: '00000000-0000-4000-8000-000000000000' },
          }),
        ),
        'builder.media_not_found',
      );
      assert.deepEqual(await footprint(), before);
    } finally {
      await client.close();
      await readOnly.close();
    }
  });

  test('given a restart, then the library and its bytes are still there; the read model rebuilt from the log equals the incremental one', async () => {
    const before = await footprint();
    assert.ok(before.tables.rm_builder_media!.length >= 5);
    instance = await instance.restart();
    const again = await footprint();
    assert.deepEqual(again, before);
    for (const row of again.tables.rm_builder_media as Loose[])
      assert.equal((await blobOf(row.sha256)).length, row.length);

    const counts = await rebuildProjections(instance.instance.pool, [builderMediaProjection]);
    assert.ok(counts['builder-media']! > 0);
    assert.deepEqual(await footprint(), before);
  });
});
