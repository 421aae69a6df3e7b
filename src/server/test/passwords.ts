import { hash } from '@node-rs/argon2';

/**
 * An argon2id hash of `password` at the lowest cost argon2 allows, for test accounts. Verifying
 * reads the cost from the stored hash, so every sign-in to such an account runs the server's own
 * check in microseconds instead of ~20 ms of CPU at the production cost (auth/passwords.ts);
 * tests that sign in hundreds of times (login limits) spent seconds on it. Hashes the server
 * makes itself (sign-up, password changes, the decoy for unknown e-mails) keep the production
 * cost, and the timing tests (auth/enumeration.test.ts) use only those.
 */
export function testPasswordHash(password: string): Promise<string> {
  return hash(password, { memoryCost: 8, timeCost: 1, parallelism: 1 });
}
