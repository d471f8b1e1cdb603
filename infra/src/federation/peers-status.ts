// The federation area's part of `tributary status` (docs/cli.md#status): each registered peer with its
// push and pull cursors, how far behind each is, and a warning for each that keeps failing.
import type { PeerRow } from '../cli/peer-row.js';
import { iso } from '@tributary/projections/iso';
import { defineStatusPart } from '../cli/status-part.js';

export interface PeerCursor {
  position: number;
  behind: number | null;
  failing: number;
  lastError: string | null;
  lastSuccessAt: string | null;
}

export type PeerStatus = PeerRow & { push: PeerCursor | null; pull: PeerCursor | null };

export const peersStatus = defineStatusPart({
  key: 'peers',
  none: [] as PeerStatus[],
  place: 'instance',
  async read(r) {
    const peers = await r.query<{
      peer_id: string;
      name: string;
      role: string;
      base_url: string;
      blocked: boolean;
    }>('SELECT peer_id, name, role, base_url, blocked FROM rm_peers ORDER BY registered_at');
    const cursors = await r.query<{
      peer_id: string;
      direction: 'push' | 'pull';
      position: string;
      attempts: number;
      last_error_code: string | null;
      last_error: string | null;
      last_success_at: Date | null;
      peer_head: string | null;
    }>(
      'SELECT peer_id, direction, position, attempts, last_error_code, last_error, last_success_at, peer_head FROM federation_sync_cursors',
    );
    const cursor = (peerId: string, direction: 'push' | 'pull'): PeerCursor | null => {
      const c = cursors.find((x) => x.peer_id === peerId && x.direction === direction);
      if (!c) return null;
      const position = Number(c.position);
      const behind =
        direction === 'push'
          ? Math.max(0, r.feedHead - position)
          : c.peer_head === null
            ? null
            : Math.max(0, Number(c.peer_head) - position);
      return {
        position,
        behind,
        failing: c.attempts,
        lastError: c.last_error_code ? `${c.last_error_code}: ${c.last_error ?? ''}` : c.last_error,
        lastSuccessAt: iso(c.last_success_at),
      };
    };
    const rows: PeerStatus[] = peers.map((p) => ({
      peerId: p.peer_id,
      name: p.name,
      role: p.role,
      baseUrl: p.base_url,
      blocked: p.blocked,
      push: cursor(p.peer_id, 'push'),
      pull: cursor(p.peer_id, 'pull'),
    }));
    for (const p of rows)
      for (const [dir, c] of [
        ['push', p.push],
        ['pull', p.pull],
      ] as const)
        if (c && c.failing > 0 && !p.blocked)
          r.warn(`peer ${p.name || p.peerId}: ${dir} failing ×${c.failing} (${c.lastError ?? 'no answer'})`);
    return rows;
  },
  print(peers, print) {
    print(peers.length === 0 ? 'peers      none registered' : `peers      ${peers.length}`);
    for (const p of peers) {
      const dir = (name: string, c: PeerCursor | null) =>
        !c
          ? `${name} not started`
          : `${name} at ${c.position}, ${c.behind === null ? 'lag unknown' : `${c.behind} behind`}${c.failing ? `, FAILING ×${c.failing}` : ''}`;
      print(
        `  ${p.name || p.peerId} (${p.role}) ${p.baseUrl}${p.blocked ? ' BLOCKED' : ''}: ${dir('push', p.push)}; ${dir('pull', p.pull)}`,
      );
    }
  },
});
