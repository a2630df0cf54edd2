import { randomUUID } from 'node:crypto'
import { AuthError } from '../errors'
import { createKeyedLock } from '../internal/keyed-lock'
import { kvLayout as k } from './kv-layout'
import type { KvGuard, KvOperation, KvStore } from './kv-store'

/** What a section's body reads and writes through. */
export interface KvSection {
  /** Reads `key`; the section's write fails, and the section runs again, if it changed since. */
  get(key: string): Promise<string | undefined>
  /** Guards the write on `key` holding `value` (absent: `undefined`), as if read so. */
  expect(key: string, value: string | undefined): void
  /** Writes `operations` in one batch, guarded by every read; at most once per run. */
  write(operations: readonly KvOperation[]): Promise<void>
}

/** How a section is isolated. */
export interface KvSectionSpec {
  /** In-process lock names, taken in this order (cheap, and spares a process its own conflicts). */
  locks: readonly string[]
  /**
   * Names whose version the section reads and its write bumps: for sections that scan a
   * prefix, which no key guard covers. Sections sharing a name are serialised across processes.
   */
  versions?: readonly string[]
  /** The write changes users, groups, keys or shares: it moves the change stamp. */
  changesDirectory?: boolean
}

/** Atomic sections over a {@link KvStore}, from {@link createKvSections}. */
export interface KvSections {
  /**
   * Runs `body` as one atomic section. When the kv honours guards, the write is a
   * compare-and-set on everything the body read (and on the spec's versions); on a conflict
   * the body runs again, so it must have no effect but its write.
   *
   * @throws {AuthError} `CONFLICT` when other writers won every one of the attempts.
   */
  run<T>(spec: KvSectionSpec, body: (section: KvSection) => Promise<T>): Promise<T>
  /** The change stamp: a value that moves with every write of users, groups, keys or shares. */
  changeStamp(): Promise<string | undefined>
}

/** Attempts of a section before it gives up on a contended record. */
export const MAX_SECTION_ATTEMPTS = 30

// Raised by a losing write inside `run`, which catches it and runs the body again.
const retry = Symbol('retry')

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(64, 2 ** attempt)))

/**
 * Sections over `kv`. Every process gets its own in-process lock; with a kv that honours
 * guards (`isConflict`), writes are also compare-and-set, so sections hold across processes
 * sharing the kv.
 */
export function createKvSections(kv: KvStore): KvSections {
  const lock = createKeyedLock()
  // Unique per write, so a reader sees any move (never back to a value it saw).
  const stampPrefix = randomUUID()
  let stamps = 0
  const locked = <T>(names: readonly string[], fn: () => Promise<T>): Promise<T> => {
    const [first, ...rest] = names
    return first === undefined ? fn() : lock.run(first, () => locked(rest, fn))
  }

  const attempt = async <T>(spec: KvSectionSpec, body: (s: KvSection) => Promise<T>) => {
    const guards = new Map<string, string | null>()
    const get = async (key: string) => {
      const value = await kv.get(key)
      if (!guards.has(key)) guards.set(key, value ?? null)
      return value
    }
    const bumps: KvOperation[] = []
    for (const name of spec.versions ?? []) {
      const key = k.lockVersion(name)
      bumps.push({ type: 'put', key, value: String(Number((await get(key)) ?? '0') + 1) })
    }
    let written = false
    return body({
      get,
      expect(key, value) {
        if (!guards.has(key)) guards.set(key, value ?? null)
      },
      async write(operations) {
        if (written) throw new Error('a section writes at most once')
        written = true
        const ops = [...operations, ...bumps]
        if (spec.changesDirectory === true) {
          ops.push({ type: 'put', key: k.changeStamp, value: `${stampPrefix}:${++stamps}` })
        }
        if (kv.isConflict === undefined) return kv.batch(ops)
        const list: KvGuard[] = [...guards].map(([key, expect]) => ({ key, expect }))
        try {
          await kv.batch(ops, { guards: list })
        } catch (err) {
          if (kv.isConflict(err)) throw retry
          throw err
        }
      },
    })
  }

  return {
    run: (spec, body) =>
      locked(spec.locks, async () => {
        for (let n = 0; n < MAX_SECTION_ATTEMPTS; n++) {
          try {
            return await attempt(spec, body)
          } catch (err) {
            if (err !== retry) throw err
            await pause(n)
          }
        }
        throw new AuthError(
          'CONFLICT',
          'identity records kept changing under this operation (other servers wrote them); try again',
        )
      }),
    changeStamp: () => kv.get(k.changeStamp),
  }
}
