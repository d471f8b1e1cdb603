// The account secrets in Postgres, sealed with the secret cipher (secret-key.ts) before they reach the
// database and opened only in memory. Each value's additional data names its row and column, so a
// ciphertext moved elsewhere does not open. A value that does not open (the key changed) reads as
// `assistant.account_reconnect_needed`.
import { domainError } from '@tributary/domain';
import type { AccountTokens, AssistantAccountVault, PendingSignIn } from '@tributary/services';
import type { Pool, PoolClient } from 'pg';
import type { SecretCipher } from './secret-key.js';
import { checkOutClient } from '../postgres/held-client.js';

interface TokenRow {
  access_token_sealed: string;
  refresh_token_sealed: string | null;
  access_expires_at: Date | null;
}

const unreadable = () =>
  domainError(
    'assistant.account_reconnect_needed',
    'conflict',
    'the account secrets cannot be read with the current key; disconnect and sign in again',
  );

export function createPgAccountVault(
  pool: Pool,
  cipher: SecretCipher,
  now: () => Date,
): AssistantAccountVault {
  const deviceContext = (p: { signInId: string; agentId: string }) =>
    `sign-in:${p.signInId}:${p.agentId}:device_code`;
  const tokenContext = (agentId: string, which: 'access' | 'refresh') => `account:${agentId}:${which}_token`;
  const open = (sealed: string, context: string) => {
    const plain = cipher.open(sealed, context);
    if (plain === undefined) throw unreadable();
    return plain;
  };
  const tokensOf = (agentId: string, row: TokenRow): AccountTokens => ({
    accessToken: open(row.access_token_sealed, tokenContext(agentId, 'access')),
    refreshToken:
      row.refresh_token_sealed === null
        ? undefined
        : open(row.refresh_token_sealed, tokenContext(agentId, 'refresh')),
    accessExpiresAt: row.access_expires_at ?? undefined,
  });
  const write = (db: Pool | PoolClient, agentId: string, t: AccountTokens) =>
    db.query(
      `INSERT INTO assistant_account_tokens
         (agent_id, access_token_sealed, refresh_token_sealed, access_expires_at, updated_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (agent_id) DO UPDATE SET
         access_token_sealed = EXCLUDED.access_token_sealed,
         refresh_token_sealed = EXCLUDED.refresh_token_sealed,
         access_expires_at = EXCLUDED.access_expires_at,
         updated_at = EXCLUDED.updated_at`,
      [
        agentId,
        cipher.seal(t.accessToken, tokenContext(agentId, 'access')),
        t.refreshToken === undefined ? null : cipher.seal(t.refreshToken, tokenContext(agentId, 'refresh')),
        t.accessExpiresAt ?? null,
        now(),
      ],
    );

  return {
    async savePending(p) {
      const client = await checkOutClient(pool);
      try {
        await client.query('BEGIN');
        // One sign-in at a time per agent; ended ones that were never polled again go too.
        await client.query(`DELETE FROM assistant_account_sign_ins WHERE agent_id = $1 OR expires_at < $2`, [
          p.agentId,
          now(),
        ]);
        await client.query(
          `INSERT INTO assistant_account_sign_ins
             (sign_in_id, agent_id, device_code_sealed, interval_seconds, next_poll_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [
            p.signInId,
            p.agentId,
            cipher.seal(p.deviceCode, deviceContext(p)),
            p.intervalSeconds,
            p.nextPollAt,
            p.expiresAt,
          ],
        );
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async loadPending(agentId, signInId): Promise<PendingSignIn | undefined> {
      const { rows } = await pool.query<{
        device_code_sealed: string;
        interval_seconds: number;
        next_poll_at: Date;
        expires_at: Date;
      }>(
        `SELECT device_code_sealed, interval_seconds, next_poll_at, expires_at
           FROM assistant_account_sign_ins WHERE sign_in_id = $1 AND agent_id = $2`,
        [signInId, agentId],
      );
      const r = rows[0];
      if (!r) return undefined;
      return {
        signInId,
        agentId,
        deviceCode: open(r.device_code_sealed, deviceContext({ signInId, agentId })),
        intervalSeconds: r.interval_seconds,
        nextPollAt: r.next_poll_at,
        expiresAt: r.expires_at,
      };
    },
    async updatePending(signInId, pacing) {
      await pool.query(
        `UPDATE assistant_account_sign_ins SET interval_seconds = $2, next_poll_at = $3 WHERE sign_in_id = $1`,
        [signInId, pacing.intervalSeconds, pacing.nextPollAt],
      );
    },
    async deletePending(signInId) {
      await pool.query(`DELETE FROM assistant_account_sign_ins WHERE sign_in_id = $1`, [signInId]);
    },
    async saveTokens(agentId, tokens) {
      await write(pool, agentId, tokens);
    },
    async loadTokens(agentId) {
      const { rows } = await pool.query<TokenRow>(
        `SELECT access_token_sealed, refresh_token_sealed, access_expires_at
           FROM assistant_account_tokens WHERE agent_id = $1`,
        [agentId],
      );
      return rows[0] ? tokensOf(agentId, rows[0]) : undefined;
    },
    async updateTokens(agentId, update) {
      const client = await checkOutClient(pool);
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<TokenRow>(
          `SELECT access_token_sealed, refresh_token_sealed, access_expires_at
             FROM assistant_account_tokens WHERE agent_id = $1 FOR UPDATE`,
          [agentId],
        );
        if (!rows[0]) {
          await client.query('ROLLBACK');
          return undefined;
        }
        const current = tokensOf(agentId, rows[0]);
        const next = await update(current);
        if (next) await write(client, agentId, next);
        await client.query('COMMIT');
        return next ?? current;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async deleteTokens(agentId) {
      await pool.query(`DELETE FROM assistant_account_tokens WHERE agent_id = $1`, [agentId]);
    },
  };
}
