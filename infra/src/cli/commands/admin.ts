// `tributary admin`: the instance's operators.
import type { Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { rt, UsageError, withInstance, runOp, printList, passwordFrom } from '../command-kit.js';

export function registerAdmin(program: Command): void {
  const admin = program.command('admin').description("the instance's operators (controllers)");
  const runAdmin = (opName: string, input: Record<string, string>) =>
    withInstance(async (instance) => {
      const op = rt.getOperation(opName)!;
      const { result } = await rt.execute(
        instance.services,
        op,
        input,
        { kind: 'system', agentId: '' },
        'cli',
      );
      console.log(JSON.stringify(result));
    });
  admin
    .command('grant <account>')
    .description('make an account (id, email or handle) an operator of this instance')
    .action((account: string) => runAdmin('svc.admin.grant_controller', { account }));
  admin
    .command('move <from> <to>')
    .description('hand the operator role from one account to another')
    .action((from: string, to: string) => runAdmin('svc.admin.move_controller', { from, to }));
  admin
    .command('create-operator')
    .description('create an account that is an operator of this instance (no setup code needed here)')
    .option('--email <email>', 'its email')
    .option('--handle <handle>', 'its handle')
    .option('--name <name>', 'its display name')
    .option(
      '--password-file <file>',
      'its password, on the first line of this file (otherwise one is made up and printed once)',
    )
    .action((o: { email?: string; handle?: string; name?: string; passwordFile?: string }) => {
      if (!o.email && !o.handle) throw new UsageError('give --email and/or --handle');
      const given = passwordFrom(o.passwordFile);
      const password = given ?? randomBytes(12).toString('base64url');
      return withInstance(async (instance) => {
        // The same operations as the sign-up page and `admin grant`: the first account becomes the operator.
        const r = await runOp(instance, 'svc.auth.sign_up', {
          ...(o.email && { email: o.email }),
          ...(o.handle && { handle: o.handle }),
          ...(o.name && { name: o.name }),
          password,
        });
        if (!r.operator)
          await runOp(instance, 'svc.admin.grant_controller', { account: String(r.accountId) });
        console.log(`operator created: ${o.handle ?? o.email} (account ${String(r.accountId)})`);
        if (!given) console.log(`password (shown once, change it after signing in): ${password}`);
      });
    });
  admin
    .command('list')
    .description('list the operators')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withInstance(async (instance) => {
        const info = await instance.services.instance.read.get();
        const rows = [];
        for (const accountId of info?.controllers ?? []) {
          const a = await instance.services.accounts.read.accountById(accountId);
          rows.push({ accountId, email: a?.email ?? null, handle: a?.handle ?? null });
        }
        printList(
          rows,
          [
            ['ACCOUNT', (r) => r.accountId],
            ['EMAIL', (r) => r.email ?? ''],
            ['HANDLE', (r) => r.handle ?? ''],
          ],
          o,
        );
      }),
    );
}
