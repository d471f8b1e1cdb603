// The accounts area's ports, filled in infra/src/compose/compose-accounts.ts.
import type { PasswordHasher, Throttle } from '../ports/runtime.js';

/** The accounts area's ports. */
export interface AccountsPorts {
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
