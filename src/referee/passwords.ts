// Referee passwords: stored only as an argon2id hash, so a leak gives none away; one-time passwords are random.
import { randomBytes } from 'node:crypto';
import { hashThread } from './hash-thread.ts';

/**
 * @node-rs/argon2's default algorithm is argon2id (OWASP's first choice); its costs are the
 * library's: 19 MiB, 2 passes, 1 lane, OWASP's recommended minimum for argon2id. Hashed on a
 * thread of low priority (hash-thread.ts).
 */
export async function hashPassword(password: string): Promise<string> {
  const h = await hashThread().hash(password);
  if (!h.startsWith('$argon2id$')) throw new Error('argon2 did not produce an argon2id hash');
  return h;
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await hashThread().verify(stored, password);
  } catch {
    return false; // a malformed stored hash never logs anyone in
  }
}

/** 18 random bytes, base64url: 24 characters, 144 bits. */
export function oneTimePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** Passwords a person chooses: long enough to matter, short enough that hashing stays cheap. */
export function passwordProblem(password: string): string | null {
  if (password.length < 12) return 'a password needs at least 12 characters';
  if (password.length > 256) return 'a password may have at most 256 characters';
  return null;
}

// Hashed once, so that a login for an unknown address costs the same as one for a known address.
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(oneTimePassword());
  return dummy;
}
