// The accounts area's ports, filled in infra/src/compose/compose-accounts.ts.
import type { PasswordHasher, Throttle } from '../ports/runtime.js';

/** The accounts area's ports. */
export interface AccountsPorts {
  read: AccountReadModels;
  passwords: PasswordHasher;
  /** Sign-in and password-confirmation failures, per account and per identifier. */
  throttle: Throttle;
  /** Absent where no one can claim the instance from the network (docs/operations.md#the-first-operator). */
  operatorClaim?: OperatorClaim | undefined;
}

/**
 * While an instance that listens beyond loopback has no operator, the account that becomes its operator
 * proves it can read the start's output (or the data folder) by giving the setup code printed there.
 */
export interface OperatorClaim {
  /** Whether the first account must give the setup code. */
  required(): boolean;
  /** Whether `code` is the setup code (compared in constant time). */
  matches(code: string): boolean;
  /** The first operator exists: the code is spent, and its file removed. */
  spent(): Promise<void>;
}

export interface AccountView {
  accountId: string;
  agentId: string;
  email: string | null;
  handle: string | null;
  createdAt: string;
  /** When its current address was verified (svc.auth.verify_email); null when it is not. */
  emailVerifiedAt: string | null;
  /** The time zone the person chose for their pages (svc.account.set_time_zone); null when they chose none. */
  timeZone: string | null;
}

export interface SessionView {
  sessionId: string;
  accountId: string;
  expiresAt: string;
  endedAt: string | null;
}

export interface AccountReadModels {
  accountById(accountId: string): Promise<AccountView | null>;
  /** Finds an account by email (normalized) or handle. */
  accountByIdentifier(identifier: string): Promise<AccountView | null>;
  sessionByTokenHash(tokenHash: string): Promise<SessionView | null>;
}

/** What the accounts area adds to the core services. */
export interface AccountsServices {
  accounts: AccountsPorts;
}
