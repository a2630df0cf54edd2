import { COMMIT_TOKEN_KEY } from '../meta/keys'
import type { MetaGuard, MetaOp, MetaStore } from '../meta/meta-store'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * The commit token of a shared database as a number: 0 while absent (no guarded batch yet),
 * then raised by one with every batch that moves refs or state. Stored as decimal text, so
 * each value names exactly one committed state and a larger one is always newer.
 */
export async function readCommitToken(meta: MetaStore): Promise<number> {
  return parseCommitToken(await meta.get('meta', COMMIT_TOKEN_KEY))
}

/** The number stored bytes hold (0 for absent). */
export function parseCommitToken(bytes: Uint8Array | undefined): number {
  if (bytes === undefined) return 0
  const value = Number(decoder.decode(bytes))
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`the commit token is not a positive integer: ${decoder.decode(bytes)}`)
  return value
}

/**
 * The guard of a batch built on the state of token `basis` (it holds only while no other
 * batch committed since) and the op that raises the token past it.
 */
export function sealWithToken(basis: number): { guards: MetaGuard[]; ops: MetaOp[] } {
  const expect = basis === 0 ? null : encoder.encode(String(basis))
  return {
    guards: [{ space: 'meta', key: COMMIT_TOKEN_KEY, expect }],
    ops: [
      {
        type: 'put',
        space: 'meta',
        key: COMMIT_TOKEN_KEY,
        value: encoder.encode(String(basis + 1)),
      },
    ],
  }
}
