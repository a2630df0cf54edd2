import { assertSystemNamespace, parseSystemKey, systemKey } from './meta/keys'
import type { MetaGuard, MetaOp, MetaStore } from './meta/meta-store'

/** One write of a {@link SystemStore} batch. */
export type SystemOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string }

/**
 * A condition of a guarded {@link SystemStore.batch}: `key` must hold exactly `expect` just
 * before the batch is written, or be absent with `expect: null`.
 */
export interface SystemGuard {
  key: string
  expect: string | null
}

/** Options of {@link SystemStore.batch}. */
export interface SystemBatchOptions {
  /** Durable when it resolves; default true. */
  sync?: boolean
  /**
   * Makes the batch a compare-and-set: it applies only if every guard holds, else it fails
   * with `CONFLICT` and writes nothing. Of batches racing on one guarded key, on any node
   * sharing the database, exactly one wins. Guarded batches also wake other nodes' watchers.
   */
  guards?: readonly SystemGuard[]
}

/**
 * An ordered string key-value store in the database's `sys` space, for records of other
 * packages (identity, tasks, schedules, webhook deliveries, configuration) next to the data
 * they describe (DESIGN §3.1). Each namespace is isolated by a key prefix. Batches are atomic
 * and, by default, durable when they resolve.
 */
export interface SystemStore {
  get(key: string): Promise<string | undefined>
  batch(ops: readonly SystemOp[], options?: SystemBatchOptions): Promise<void>
  /** Entries whose key starts with `prefix`, in key order (at most `limit`). */
  entries(prefix: string, options?: { limit?: number; after?: string }): Promise<[string, string][]>
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The system store of `namespace` over `meta`. */
export function createSystemStore(
  meta: MetaStore,
  namespace: string,
  assertOpen: () => void,
): SystemStore {
  assertSystemNamespace(namespace)
  return {
    async get(key) {
      assertOpen()
      const value = await meta.get('sys', systemKey(namespace, key))
      return value === undefined ? undefined : decoder.decode(value)
    },
    async batch(ops, options = {}) {
      assertOpen()
      const metaOps = ops.map((op): MetaOp =>
        op.type === 'put'
          ? {
              type: 'put',
              space: 'sys',
              key: systemKey(namespace, op.key),
              value: encoder.encode(op.value),
            }
          : { type: 'del', space: 'sys', key: systemKey(namespace, op.key) },
      )
      const guards = options.guards?.map((guard): MetaGuard => ({
        space: 'sys',
        key: systemKey(namespace, guard.key),
        expect: guard.expect === null ? null : encoder.encode(guard.expect),
      }))
      await meta.batch(metaOps, {
        sync: options.sync ?? true,
        ...(guards === undefined ? {} : { guards }),
      })
    },
    async entries(start, options = {}) {
      assertOpen()
      const out: [string, string][] = []
      const from = systemKey(namespace, start)
      const range =
        options.after === undefined ? { gte: from } : { gt: systemKey(namespace, options.after) }
      // Keys sort by their UTF-8 bytes, so every key with the prefix follows `from` in one
      // run: stop at the first one without it (no upper-bound key to get wrong).
      for await (const [key, value] of meta.iterate('sys', range)) {
        if (!key.startsWith(from)) break
        if (options.limit !== undefined && out.length >= options.limit) break
        out.push([(parseSystemKey(key) as { key: string }).key, decoder.decode(value)])
      }
      return out
    },
  }
}
