import { randomBytes } from 'node:crypto'

/**
 * Where the library draws secrets and ids from. The default is the operating system's CSPRNG;
 * tests inject their own to provoke collisions.
 */
export interface RandomSource {
  /** `length` fresh random bytes. */
  bytes(length: number): Uint8Array
}

/** The cryptographically secure source of `node:crypto`. */
export const cryptoRandomSource: RandomSource = {
  bytes: (length) => new Uint8Array(randomBytes(length)),
}
