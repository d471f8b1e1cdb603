// `tributary backup` and `tributary restore` (docs/operations.md#backup-and-restore): one consistent
// snapshot of the whole database (a REPEATABLE READ, READ ONLY transaction: every table as of one
// instant) and the key folder, in one file, optionally encrypted (scrypt + AES-256-GCM).
//
// The file: `TRIBBAK1`, then `P` (plain) or `E` (encrypted: 16-byte scrypt salt, 12-byte IV, then the
// ciphertext and the 16-byte GCM tag last). The body is gzip of JSON lines: a header (format, version,
// time, instance id, migrations, sequences, key files), then per table `{"table":name}`, its rows as
// `row_to_json`, and `{"end":name}`; then (version 2) each file of the blob store as `{"blob":sha256,
// "size":n}`, its bytes as base64 lines of at most 64 KiB, and `{"endBlob":sha256}`; last `{"done":true}`.
// A restore loads everything in one transaction and commits only once the whole file was read — and,
// encrypted, its tag verified — so a damaged or tampered file restores nothing (the blobs are staged
// beside the blob store and moved into it only then).
import { DomainError } from '@tributary/domain';
import {
  createCipheriv,
  createHash,
  createDecipheriv,
  randomBytes,
  scryptSync,
  type CipherGCM,
  type DecipherGCM,
} from 'node:crypto';
import { once } from 'node:events';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  openSync,
  promises as fsp,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type pg from 'pg';
import { writeNewFileAtomically } from '../signing/ed25519-keys.js';
import { checkOutClient } from '../postgres/held-client.js';
import { markRecoveryPending } from './restore-recovery.js';

const MAGIC = Buffer.from('TRIBBAK1');
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** scrypt cost: N = 2^15, r = 8, p = 1 (about 32 MiB and a tenth of a second). */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const ROWS_PER_FETCH = 1000;
const ROWS_PER_INSERT = 500;
/** Written by the database itself at restore: the restoring transaction's id (see restoreBackup). */
const RESTORE_DEFAULTED: Record<string, string[]> = { events: ['tx_id'] };

interface Header {
  format: 'tributary-backup';
  /** 1: tables and keys; 2: the blob store too. */
  version: 1 | 2;
  createdAt: string;
  instanceId: string | null;
  migrations: number[];
  sequences: { name: string; lastValue: string | null; isCalled: boolean }[];
  /** The key folder's files (names and contents as they are: encrypted keys stay encrypted). */
  keys: { name: string; contents: string }[];
  /** The feed's head and the log's last position at the snapshot. */
  feedHead: number;
}

function keyOf(passphrase: string, salt: Buffer): Buffer {
  return scryptSync(passphrase, salt, 32, SCRYPT);
}

/** The key folder's regular files (keys and secrets' keys), names and contents. */
function readKeyFolder(dir: string): Header['keys'] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names
    .filter((n) => !n.startsWith('.') && statSync(join(dir, n)).isFile())
    .sort()
    .map((name) => ({ name, contents: readFileSync(join(dir, name), 'utf8') }));
}

const BLOB_NAME = /^[0-9a-f]{64}$/;
/** Bytes per base64 line of a blob (a multiple of 3, so no line but the last is padded): 64 KiB of text. */
const BLOB_CHUNK = 48 * 1024;

/** The blob store's files (`<aa>/<62 hex>`, as FsBlobStore lays them out) by name, sorted; no temp files. */
async function listBlobs(dir: string): Promise<string[]> {
  const ls = (d: string) =>
    fsp.readdir(d).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [] as string[];
      throw e;
    });
  const out: string[] = [];
  for (const aa of (await ls(dir)).filter((n) => /^[0-9a-f]{2}$/.test(n)).sort())
    for (const rest of (await ls(join(dir, aa))).sort()) if (BLOB_NAME.test(aa + rest)) out.push(aa + rest);
  return out;
}

const blobPath = (dir: string, name: string) => join(dir, name.slice(0, 2), name.slice(2));

/** Public tables, parents before the tables whose foreign keys name them. */
async function tablesInOrder(db: pg.ClientBase): Promise<string[]> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  const { rows: fks } = await db.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE k.contype = 'f' AND n.nspname = 'public' AND c.relname <> p.relname`,
  );
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    for (const fk of fks) if (fk.child === t) visit(fk.parent);
    order.push(t);
  };
  for (const t of tables) visit(t.name);
  return order;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Writes a backup of the database behind `pool` and the key folder `keyDir` to `file` (which must not
 * exist). Returns what it holds.
 */
export async function writeBackup(
  pool: pg.Pool,
  o: { file: string; keyDir: string; blobDir: string; passphrase?: string | undefined },
): Promise<{
  tables: number;
  rows: number;
  feedHead: number;
  encrypted: boolean;
  blobs: number;
  blobBytes: number;
}> {
  // Opened before anything else, so a file that exists (or appeared since the command checked) is one
  // clear error rather than an error event on a stream already being written.
  const handle = await fsp.open(o.file, 'wx', 0o600).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'EEXIST')
      throw new DomainError(
        'backup.file_exists',
        'conflict',
        `${o.file} exists; a backup is written to a new file only`,
      );
    throw e;
  });
  const client = await checkOutClient(pool).catch(async (e: unknown) => {
    await handle.close();
    throw e;
  });
  const out = createWriteStream('', { fd: handle });
  let cipher: CipherGCM | null = null;
  out.write(Buffer.concat([MAGIC, Buffer.from(o.passphrase === undefined ? 'P' : 'E')]));
  if (o.passphrase !== undefined) {
    const salt = randomBytes(SALT_BYTES);
    const iv = randomBytes(IV_BYTES);
    out.write(Buffer.concat([salt, iv]));
    cipher = createCipheriv('aes-256-gcm', keyOf(o.passphrase, salt), iv);
  }
  const gzip = createGzip();
  const body = new PassThrough();
  const sink: Promise<void> = cipher
    ? pipeline(body, gzip, cipher, out, { end: false }).then(async () => {
        out.end(cipher.getAuthTag());
        await once(out, 'finish');
      })
    : pipeline(body, gzip, out);
  const write = async (line: unknown) => {
    if (!body.write(`${JSON.stringify(line)}\n`)) await once(body, 'drain');
  };
  let rows = 0;
  let tables: string[] = [];
  let feedHead = 0;
  let blobs = 0;
  let blobBytes = 0;
  try {
    // One snapshot for everything: what a transaction committed is in the backup whole, or not at all.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    tables = await tablesInOrder(client);
    const migrations = (
      await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')
    ).rows.map((r) => r.version);
    const instanceId =
      (await client.query<{ instance_id: string }>('SELECT instance_id FROM rm_instance')).rows[0]
        ?.instance_id ?? null;
    const { rows: sequences } = await client.query<{
      name: string;
      last_value: string | null;
    }>(
      `SELECT sequencename AS name, last_value::text AS last_value FROM pg_sequences WHERE schemaname = 'public'`,
    );
    feedHead = Number(
      (await client.query<{ n: string }>('SELECT coalesce(max(seq), 0) AS n FROM event_sequence WHERE feed'))
        .rows[0]!.n,
    );
    const header: Header = {
      format: 'tributary-backup',
      version: 2,
      createdAt: new Date().toISOString(),
      instanceId,
      migrations,
      sequences: sequences.map((s) => ({
        name: s.name,
        lastValue: s.last_value,
        isCalled: s.last_value !== null,
      })),
      // Read after the snapshot was taken: keys are only ever added, so every key the snapshot's log
      // names is among them.
      keys: readKeyFolder(o.keyDir),
      feedHead,
    };
    await write(header);
    for (const table of tables) {
      await write({ table });
      // The log in the order it was written: a restore inserts it in batches, and each batch must extend
      // its streams' chains (the version-chain trigger), which a table's physical order does not promise
      // (a write that aborted leaves room a later one fills).
      const order = table === 'events' ? ' ORDER BY t.position' : '';
      await client.query(
        `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM ${ident(table)} t${order}`,
      );
      for (;;) {
        const { rows: batch } = await client.query<{ r: string }>(`FETCH ${ROWS_PER_FETCH} FROM backup_rows`);
        for (const { r } of batch) if (!body.write(`${r}\n`)) await once(body, 'drain');
        rows += batch.length;
        if (batch.length < ROWS_PER_FETCH) break;
      }
      await client.query('CLOSE backup_rows');
      await write({ end: table });
    }
    await client.query('COMMIT');
    // The blob store, listed after the snapshot: blobs are only ever added, so every blob the snapshot's
    // rows name is among them. Streamed, a chunk at a time, never a whole file in memory.
    for (const name of await listBlobs(o.blobDir)) {
      const path = blobPath(o.blobDir, name);
      const size = (await fsp.stat(path)).size;
      await write({ blob: name, size });
      for await (const chunk of createReadStream(path, { highWaterMark: BLOB_CHUNK }))
        if (!body.write(`${(chunk as Buffer).toString('base64')}\n`)) await once(body, 'drain');
      await write({ endBlob: name });
      blobs++;
      blobBytes += size;
    }
    await write({ done: true });
    body.end();
    await sink;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    body.destroy();
    out.destroy();
    throw e;
  } finally {
    client.release();
  }
  return { tables: tables.length, rows, feedHead, encrypted: cipher !== null, blobs, blobBytes };
}

function bad(message: string): DomainError {
  return new DomainError('backup.unreadable', 'invalid', message);
}

/** The body of a backup file as a stream of gzip-decoded bytes, and how to check its tag at the end. */
async function openBody(
  file: string,
  passphrase: string | undefined,
): Promise<{ stream: Readable; done: () => Promise<void> }> {
  const size = statSync(file).size;
  const readAt = (length: number, position: number) => {
    const buf = Buffer.alloc(length);
    const h = openSync(file, 'r');
    try {
      return buf.subarray(0, readSync(h, buf, 0, length, position));
    } finally {
      closeSync(h);
    }
  };
  const fd = readAt(MAGIC.length + 1 + SALT_BYTES + IV_BYTES, 0);
  if (fd.length < MAGIC.length + 1 || !fd.subarray(0, MAGIC.length).equals(MAGIC))
    throw bad('not a tributary backup file');
  const mode = String.fromCharCode(fd[MAGIC.length]!);
  if (mode === 'P') {
    if (passphrase !== undefined) throw bad('this backup is not encrypted; give no passphrase');
    const gunzip = createGunzip();
    const source = createReadStream(file, { start: MAGIC.length + 1 });
    const piped = pipeline(source, gunzip).catch((e: unknown) => {
      throw bad(`the backup is damaged: ${(e as Error).message}`);
    });
    return { stream: gunzip, done: () => piped };
  }
  if (mode !== 'E') throw bad('not a tributary backup file');
  if (passphrase === undefined)
    throw new DomainError(
      'backup.passphrase_required',
      'invalid',
      'this backup is encrypted; give --passphrase-file',
    );
  const start = MAGIC.length + 1;
  const salt = fd.subarray(start, start + SALT_BYTES);
  const iv = fd.subarray(start + SALT_BYTES, start + SALT_BYTES + IV_BYTES);
  const bodyStart = start + SALT_BYTES + IV_BYTES;
  if (size < bodyStart + TAG_BYTES) throw bad('the backup is cut short');
  const tag = readAt(TAG_BYTES, size - TAG_BYTES);
  const key = keyOf(passphrase, salt);
  const decipherOf = (): DecipherGCM => {
    const d = createDecipheriv('aes-256-gcm', key, iv);
    d.setAuthTag(tag);
    return d;
  };
  // A first pass checks the tag alone, so a wrong passphrase is told apart from a damaged file before
  // anything is parsed (the second pass is checked again at its end).
  await pipeline(
    createReadStream(file, { start: bodyStart, end: size - TAG_BYTES - 1 }),
    decipherOf(),
    new Writable({ write: (_chunk, _enc, cb) => cb() }),
  ).catch(() => {
    throw new DomainError(
      'backup.wrong_passphrase',
      'invalid',
      'the passphrase is wrong, or the backup was altered',
    );
  });
  const decipher = decipherOf();
  const gunzip = createGunzip();
  const source = createReadStream(file, { start: bodyStart, end: size - TAG_BYTES - 1 });
  // The tag is checked when the decipher ends; until then nothing read is committed.
  const piped = pipeline(source, decipher, gunzip).catch((e: unknown) => {
    const m = (e as Error).message;
    throw /authenticate/i.test(m)
      ? new DomainError(
          'backup.wrong_passphrase',
          'invalid',
          'the passphrase is wrong, or the backup was altered',
        )
      : bad(`the backup is damaged: ${m}`);
  });
  return { stream: gunzip, done: () => piped };
}

/** Whether the database holds anything of an instance (a restore goes only into an empty one). */
export async function databaseIsEmpty(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ t: string | null }>(
    `SELECT to_regclass('public.schema_migrations')::text AS t`,
  );
  if (rows[0]?.t === null || rows[0]?.t === undefined) {
    const { rows: any } = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`,
    );
    return Number(any[0]!.n) === 0;
  }
  const { rows: events } = await pool.query<{ n: string }>(
    `SELECT CASE WHEN to_regclass('public.events') IS NULL THEN 0 ELSE (SELECT count(*) FROM events) END AS n`,
  );
  return Number(events[0]!.n) === 0;
}

/**
 * Loads a backup into an empty database (after `migrateTo` brought its schema to the backup's
 * migrations) and writes its key files into `keyDir`. One transaction: committed only once the whole
 * file was read and checked.
 */
export async function restoreBackup(
  pool: pg.Pool,
  o: {
    file: string;
    keyDir: string;
    blobDir: string;
    passphrase?: string | undefined;
    migrateTo: (versions: ReadonlySet<number>) => Promise<void>;
  },
): Promise<{
  instanceId: string | null;
  tables: number;
  rows: number;
  feedHead: number;
  keys: number;
  blobs: number;
}> {
  const { stream, done } = await openBody(o.file, o.passphrase);
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const it = lines[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const r = await it.next();
    if (r.done) throw bad('the backup is cut short');
    return r.value;
  };
  // Stops reading a file not read to its end: the pipeline would wait for a reader for ever.
  const abandon = async () => {
    lines.close();
    stream.destroy();
    await done().catch(() => undefined);
  };
  let header: Header;
  try {
    header = JSON.parse(await next()) as Header;
  } catch (e) {
    await abandon();
    throw e instanceof DomainError ? e : bad('the backup header is not readable');
  }
  let client: pg.PoolClient;
  try {
    if (header.format !== 'tributary-backup' || (header.version !== 1 && header.version !== 2))
      throw bad('unknown backup format');
    await o.migrateTo(new Set(header.migrations));
    client = await checkOutClient(pool);
  } catch (e) {
    await abandon();
    throw e;
  }
  let rows = 0;
  let tables = 0;
  // Blobs are written here, beside the store, and moved into it only when the restore commits.
  const staging = join(o.blobDir, `.restoring-${randomBytes(6).toString('hex')}`);
  const staged: string[] = [];
  const stageBlob = async (name: string, size: number) => {
    if (!BLOB_NAME.test(name) || !Number.isSafeInteger(size)) throw bad('the backup names a blob wrongly');
    await fsp.mkdir(staging, { recursive: true });
    const out = createWriteStream(join(staging, name), { flags: 'wx', mode: 0o644 });
    const hash = createHash('sha256');
    let length = 0;
    try {
      for (;;) {
        const text = await next();
        if (text.startsWith('{"endBlob":')) break;
        const bytes = Buffer.from(text, 'base64');
        hash.update(bytes);
        length += bytes.length;
        if (!out.write(bytes)) await once(out, 'drain');
      }
    } finally {
      out.end();
      await once(out, 'close');
    }
    // Content-addressed: a blob whose bytes hash otherwise is damaged, and never put in the store.
    if (length !== size || hash.digest('hex') !== name) throw bad(`blob ${name} in the backup is damaged`);
    staged.push(name);
  };
  try {
    await client.query('BEGIN');
    for (;;) {
      const line = JSON.parse(await next()) as {
        table?: string;
        done?: boolean;
        blob?: string;
        size?: number;
      };
      if (line.done) break;
      if (typeof line.blob === 'string') {
        await stageBlob(line.blob, Number(line.size));
        continue;
      }
      if (typeof line.table !== 'string') throw bad('the backup is out of order');
      const table = line.table;
      tables++;
      const { rows: cols } = await client.query<{ name: string }>(
        `SELECT attname AS name FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0
         AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
        [`public.${ident(table)}`],
      );
      if (cols.length === 0) throw bad(`the backup has a table ${table} this version does not`);
      const columns = cols.map((c) => c.name).filter((c) => !(RESTORE_DEFAULTED[table] ?? []).includes(c));
      const list = columns.map(ident).join(', ');
      // Rows already in the table (written by the migrations, e.g. a singleton) give way to the backup's.
      const { rows: some } = await client.query(`SELECT 1 FROM ${ident(table)} LIMIT 1`);
      if (some.length > 0) await client.query(`DELETE FROM ${ident(table)}`);
      let batch: string[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        await client.query(
          `INSERT INTO ${ident(table)} (${list}) OVERRIDING SYSTEM VALUE
           SELECT ${list} FROM json_populate_recordset(NULL::${ident(table)}, $1::json)`,
          [`[${batch.join(',')}]`],
        );
        rows += batch.length;
        batch = [];
      };
      for (;;) {
        const text = await next();
        if (text.startsWith('{"end":')) break;
        batch.push(text);
        if (batch.length >= ROWS_PER_INSERT) await flush();
      }
      await flush();
    }
    for (const s of header.sequences)
      if (s.lastValue !== null)
        await client.query(`SELECT setval($1, $2::bigint, true)`, [`public.${ident(s.name)}`, s.lastValue]);
    // The log's rows now carry this transaction's id; the sequencer's bookmark must too, or rows
    // appended after the restore (with later ids) would sort before it and never be numbered.
    await client.query(`UPDATE sequencer_state SET last_tx = pg_current_xact_id()`);
    // `tributary start` refuses this database until `tributary recover` has completed.
    await markRecoveryPending(client, header.createdAt);
    // Nothing is committed until the whole file is read and, encrypted, its tag checked.
    await it.next();
    await done();
    for (const k of header.keys)
      if (!writeNewFileAtomically(join(o.keyDir, k.name), k.contents))
        throw new DomainError(
          'backup.target_not_empty',
          'conflict',
          `${join(o.keyDir, k.name)} exists already`,
        );
    // Into the store (a blob already there is the same bytes: it is named by them).
    for (const name of staged) {
      await fsp.mkdir(join(o.blobDir, name.slice(0, 2)), { recursive: true });
      await fsp.rename(join(staging, name), blobPath(o.blobDir, name));
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    await abandon();
    throw e;
  } finally {
    client.release();
    lines.close();
    await fsp.rm(staging, { recursive: true, force: true });
  }
  return {
    instanceId: header.instanceId,
    tables,
    rows,
    feedHead: header.feedHead,
    keys: header.keys.length,
    blobs: staged.length,
  };
}
