import { expect } from 'vitest'
import type { ChunkStore, CompactOptions, CompactReport } from '../../chunks/chunk-store'
import { isEngineError } from '../../errors'
import type { EngineErrorCode } from '../../errors'
import type { ChunkStoreFixture, ChunkSuiteContext } from './fixture'

export function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  return (
    actual.length === expected.length &&
    Buffer.compare(Buffer.from(actual), Buffer.from(expected)) === 0
  )
}

/** The engine error code `pending` rejects with, or `resolved`. */
export async function errorCode(pending: Promise<unknown>): Promise<EngineErrorCode | string> {
  try {
    await pending
    return 'resolved'
  } catch (err) {
    return isEngineError(err) ? err.code : String(err)
  }
}

export const hexOf = (hash: Uint8Array): string => Buffer.from(hash).toString('hex')

export async function listEntries(
  store: ChunkStore,
): Promise<{ hash: Uint8Array; storedBytes: number }[]> {
  const out = []
  for await (const entry of store.entries()) out.push(entry)
  return out
}

/** Compacts through `meta.batch`, counting the commits. */
export async function compactVia(
  fixture: ChunkStoreFixture,
  options: Omit<CompactOptions, 'commit'> = {},
  commit: CompactOptions['commit'] = (ops) => fixture.meta.batch(ops, { sync: true }),
): Promise<{ report: CompactReport; commits: number }> {
  let commits = 0
  const report = await fixture.store.compact({
    ...options,
    commit: (ops) => {
      commits++
      return commit(ops)
    },
  })
  return { report, commits }
}

/**
 * Commits `live` and `dead` interleaved (so stores that group chunks hold both side by
 * side) in a few groups, then removes `dead`; returns the removed hashes.
 */
export async function withRemoved(
  ctx: ChunkSuiteContext,
  fixture: ChunkStoreFixture,
  live: Uint8Array[],
  dead: Uint8Array[],
): Promise<Uint8Array[]> {
  const spread = (list: Uint8Array[]) => list.map((c, i) => [i / list.length, c] as const)
  const all = [...spread(live), ...spread(dead)].sort((a, b) => a[0] - b[0]).map(([, c]) => c)
  for (let i = 0; i < all.length; i += 6)
    await ctx.commit(fixture, await ctx.stageAll(fixture, all.slice(i, i + 6)))
  const removed = await Promise.all(dead.map(ctx.idOf))
  await fixture.meta.batch(
    removed.flatMap((h) => fixture.store.removeOps(h)),
    { sync: true },
  )
  return removed
}

/** `live` reads back intact, `removed` is gone, and entries() lists exactly `live`. */
export async function expectState(
  ctx: ChunkSuiteContext,
  fixture: ChunkStoreFixture,
  live: Uint8Array[],
  removed: Uint8Array[],
): Promise<void> {
  for (const c of live) expect(sameBytes(await fixture.store.read(await ctx.idOf(c)), c)).toBe(true)
  for (const h of removed) {
    expect(await fixture.store.has(h)).toBe(false)
    expect(await errorCode(fixture.store.read(h))).toBe('NOT_FOUND')
  }
  const listed = (await listEntries(fixture.store)).map((e) => hexOf(e.hash)).sort()
  const expected = (await Promise.all(live.map(ctx.idOf))).map(hexOf).sort()
  expect(listed).toEqual(expected)
}
