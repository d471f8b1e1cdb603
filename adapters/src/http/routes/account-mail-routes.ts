// Email verification and password reset for local accounts (docs/mail.md#accounts), REST aliases of the
// catalogue's operations. Asking for a reset answers 202 whether or not the address has an account.
import { requestPasswordReset, resetPassword, sendVerificationEmail, verifyEmail } from '@tributary/services';
import { Router } from 'express';
import { principalOf, type HttpContext } from '../context.js';
import { runOperation } from '../run-operation.js';

export function accountMailRoutes(ctx: HttpContext): Router {
  const r = Router();
  r.post('/email/verification', async (req, res) => {
    const { result } = await runOperation(ctx, sendVerificationEmail, {}, await principalOf(ctx, req), req);
    res.status(202).json({ result });
  });
  r.post('/email/verify', async (req, res) => {
    const { result } = await runOperation(ctx, verifyEmail, req.body, 'anonymous');
    res.status(200).json({ result });
  });
  r.post('/password-reset', async (req, res) => {
    const { result } = await runOperation(ctx, requestPasswordReset, req.body, 'anonymous');
    res.status(202).json({ result });
  });
  r.post('/password-reset/confirm', async (req, res) => {
    const { result } = await runOperation(ctx, resetPassword, req.body, 'anonymous');
    res.status(200).json({ result });
  });
  return r;
}
