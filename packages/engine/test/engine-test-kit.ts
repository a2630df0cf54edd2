import { MemoryLevel } from 'memory-level'
import { expect } from 'vitest'
import { Database } from '../src/database'
import type { DatabaseOptions } from '../src/database'
import { isEngineError } from '../src/errors'
import type { EngineErrorCode } from '../src/errors'

/** UTF-8 text of bytes. */
export const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)

/** Expects `promise` to reject with an EngineError of `code`; returns the error. */
export async function rejectsWith(
  promise: Promise<unknown>,
  code: EngineErrorCode,
): Promise<Error> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(isEngineError(err, code), `expected ${code}, got ${String(err)}`).toBe(true)
  return err as Error
}

/** Everything an async iterable yields. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) out.push(item)
  return out
}

/** A database in memory-level with a controllable clock, plus its level for inspection. */
export async function openMemoryDatabase(
  start = 1_700_000_000_000,
  options: Omit<DatabaseOptions, 'level' | 'path' | 'clock'> = {},
) {
  const clock = { time: start, now: () => clock.time }
  const level = new MemoryLevel<Uint8Array, Uint8Array>({
    keyEncoding: 'view',
    valueEncoding: 'view',
  })
  const db = await Database.open({ ...options, level, clock })
  /** Number of keys in a space of the metadata store. */
  const countKeys = async (space: string): Promise<number> =>
    (await level.sublevel(space, { keyEncoding: 'view', valueEncoding: 'view' }).keys().all())
      .length
  return { db, clock, level, countKeys }
}
