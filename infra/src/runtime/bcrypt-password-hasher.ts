// bcrypt's native binding hashes on libuv's thread pool, so the event loop never waits on it.
import bcrypt from 'bcrypt';
import type { PasswordHasher } from '@tributary/services';

export function createBcryptHasher(rounds: number): PasswordHasher {
  // A real hash of a random string, so a dummy verify costs what a real one does.
  const dummy = bcrypt.hash(`dummy-${Math.random()}`, rounds);
  return {
    hash: (password) => bcrypt.hash(password, rounds),
    verify: (password, hash) => (hash ? bcrypt.compare(password, hash) : Promise.resolve(false)),
    async verifyDummy(password) {
      await bcrypt.compare(password, await dummy);
    },
  };
}
