// `tributary peers`: the peer instances this one federates with.
import type { Command } from 'commander';
import type { PeerRow } from '../peer-row.js';
import { rt, UsageError, withInstance, runOp, printList } from '../command-kit.js';

export function registerPeers(program: Command): void {
  const peers = program.command('peers').description('the peer instances this one federates with');
  peers
    .command('add')
    .description(
      'register a peer: from its signed manifest (--from <baseUrl>), or its id, base URL, role and key given by hand',
    )
    .option('--from <baseUrl>', "read id, role and key from the peer's signed manifest at this base URL")
    .option('--expect-key-id <keyId>', 'with --from: refuse unless the manifest is signed by this key id')
    .option('--id <instanceId>', "the peer's instance id")
    .option('--url <baseUrl>', "the peer's base URL")
    .option('--role <role>', 'global, person, group, locale or region')
    .option('--key <publicKey>', "the peer's Ed25519 public key (unpadded base64url)")
    .option('--name <name>', 'a display name')
    .option('--secret <secret>', 'the shared secret agreed out of band (generated and shown once if omitted)')
    .action(
      (o: {
        from?: string;
        expectKeyId?: string;
        id?: string;
        url?: string;
        role?: string;
        key?: string;
        name?: string;
        secret?: string;
      }) =>
        withInstance(async (instance) => {
          let peer = { id: o.id, url: o.url, role: o.role, key: o.key, name: o.name };
          let keyId: string | undefined;
          let previousKeys: unknown[] = [];
          if (o.from) {
            const m = await rt.fetchPeerManifest(
              rt.outboundFromConfig(instance.config),
              o.from,
              instance.services.clock.now(),
            );
            if (o.expectKeyId && o.expectKeyId !== m.keyId)
              throw new Error(`the manifest is signed by ${m.keyId}, not the expected ${o.expectKeyId}`);
            peer = {
              id: m.instanceId,
              url: m.baseUrl,
              role: m.role,
              key: m.publicKey,
              name: o.name ?? m.name,
            };
            keyId = m.keyId;
            previousKeys = m.previousKeys;
          }
          if (!peer.id || !peer.url || !peer.role || !peer.key)
            throw new UsageError('give --from <baseUrl>, or all of --id, --url, --role and --key');
          const r = await runOp(instance, 'svc.federation.register_peer', {
            peerId: peer.id,
            baseUrl: peer.url,
            role: peer.role,
            publicKey: peer.key,
            ...(peer.name && { name: peer.name }),
            ...(o.secret && { secret: o.secret }),
            // Registered after the peer rotated: its older keys verify its history (the manifest vouches).
            ...(previousKeys.length > 0 && { previousKeys }),
          });
          console.log(`registered ${String(r.peerId)} (${String(r.role)}) at ${String(r.baseUrl)}`);
          if (keyId && !o.expectKeyId)
            console.log(
              `key id ${keyId}: confirm it with the peer's operator (\`tributary federation identity\` prints it there)`,
            );
          if (r.secret)
            console.log(`shared secret (shown once, give it to the peer's operator): ${String(r.secret)}`);
        }),
    );
  peers
    .command('list')
    .description('list the registered peers and their keys')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withInstance(async (instance) => {
        // Every peer, read a page of 200 at a time (`federation status` pages and summarises).
        type Listed = PeerRow & { keys: { keyId: string; validUntil: string | null }[] };
        const list: Listed[] = [];
        for (let after: string | null | undefined; after !== null;) {
          const r = await runOp(instance, 'svc.federation.list_peers', {
            limit: 200,
            ...(after && { after }),
          });
          list.push(...(r.peers as Listed[]));
          after = r.next as string | null;
        }
        if (list.length === 0 && !o.json)
          return console.log('no peers registered (add one with `tributary peers add --from <base URL>`)');
        printList(
          list,
          [
            ['PEER', (p) => p.peerId],
            ['ROLE', (p) => p.role],
            ['BASE URL', (p) => p.baseUrl],
            ['STATUS', (p) => (p.blocked ? 'BLOCKED' : 'active')],
            ['KEY ID', (p) => p.keys.find((k) => !k.validUntil)?.keyId ?? '-'],
            ['NAME', (p) => p.name],
          ],
          o,
        );
      }),
    );
  peers
    .command('rotate <peerId>')
    .description("record a peer's new key, or rotate the shared secret")
    .option(
      '--key <publicKey>',
      "the peer's new Ed25519 public key (the old one keeps verifying its past events)",
    )
    .option('--secret [secret]', 'a new shared secret (generated and shown once when no value is given)')
    .action((peerId: string, o: { key?: string; secret?: string | boolean }) =>
      withInstance(async (instance) => {
        if (!o.key && o.secret === undefined) throw new UsageError('give --key and/or --secret');
        const r = await runOp(instance, 'svc.federation.update_peer', {
          peerId,
          ...(o.key && { publicKey: o.key }),
          ...(o.secret === true && { rotateSecret: true }),
          ...(typeof o.secret === 'string' && { secret: o.secret }),
        });
        console.log(`${peerId}: ${(r.changed as string[]).join(', ') || 'unchanged'}`);
        if (r.secret) console.log(`new shared secret (shown once): ${String(r.secret)}`);
      }),
    );
  peers
    .command('block <peerId>')
    .description('refuse everything from a peer and stop syncing with it')
    .option('--reason <reason>', 'why')
    .action((peerId: string, o: { reason?: string }) =>
      withInstance(async (instance) => {
        await runOp(instance, 'svc.federation.update_peer', {
          peerId,
          blocked: true,
          ...(o.reason && { reason: o.reason }),
        });
        console.log(`${peerId}: blocked`);
      }),
    );
  peers
    .command('unblock <peerId>')
    .description('accept a blocked peer again')
    .action((peerId: string) =>
      withInstance(async (instance) => {
        await runOp(instance, 'svc.federation.update_peer', { peerId, blocked: false });
        console.log(`${peerId}: unblocked`);
      }),
    );
}
