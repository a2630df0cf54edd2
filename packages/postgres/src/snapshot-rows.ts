import type { EngineError } from '@svcdb/engine'
import type { PoolClient } from 'pg'
import type { SqlQuery } from './range-sql'

/** A pooled client lent to one iteration; the store destroys it when it closes. */
export interface Lease {
  readonly client: PoolClient
  readonly released: boolean
  /** Returns the client to the pool, or with `destroy` closes its connection. Idempotent. */
  release(destroy: boolean): void
}

/** What an iteration needs from its store. */
export interface IterationHost {
  /** A client of its own for the iteration's transaction. */
  lease(): Promise<Lease>
  /** Runs one statement on any pooled client, rows as arrays. */
  query(query: SqlQuery): Promise<Row[]>
  /** Throws `CLOSED` once the store is closed. */
  assertOpen(): void
  /** An error of `pg` as the store reports it (`CLOSED` once closed, else `IO_ERROR`). */
  wrap(action: string, err: unknown): EngineError
}

/** Rows per fetch of a keys-only iteration (keys are small: ≈ 32 KiB a page). */
export const KEY_PAGE_ROWS = 1000
/** Rows of the first fetch of an iteration with values; later ones aim at {@link PAGE_BYTES}. */
const VALUE_PAGE_ROWS = 128
const MAX_VALUE_PAGE_ROWS = 512
const MIN_VALUE_PAGE_ROWS = 8
/** Bytes a fetch with values aims at: chunks kept in the store can be up to 1 MiB each. */
const PAGE_BYTES = 4 << 20

/** A row of a range: the key, and the value unless keys only were asked for. */
export type Row = [Buffer, Buffer | undefined]

/**
 * The rows of `query` (columns `key[, value]`) read from one snapshot: a `REPEATABLE READ
 * READ ONLY` transaction on a client of its own, begun when the first row is asked for, reads
 * them through a cursor a page at a time. A range that fits in the first page ends its
 * transaction and gives the client back before the first row is yielded; a longer one holds
 * it until it ends, is abandoned (`break`) or the store closes. A `limit` within one page
 * needs no transaction: a single statement reads one snapshot.
 */
export async function* snapshotRows(
  host: IterationHost,
  query: SqlQuery,
  options: { withValues: boolean; limit: number | undefined },
): AsyncGenerator<Row> {
  host.assertOpen()
  let remaining = options.limit ?? Infinity
  if (remaining <= 0) return
  let pageRows = options.withValues ? VALUE_PAGE_ROWS : KEY_PAGE_ROWS
  let lease: Lease | undefined
  try {
    if (remaining <= pageRows) {
      for (const row of await host.query(query)) {
        host.assertOpen()
        yield row
      }
      return
    }
    lease = await host.lease()
    const { client } = lease
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    // The snapshot is taken here, by the transaction's first query.
    await client.query({
      text: `DECLARE kv_range NO SCROLL CURSOR FOR ${query.text}`,
      values: query.values,
    })
    for (;;) {
      const asked = Math.min(pageRows, remaining)
      const { rows } = await client.query<Row>({
        text: `FETCH FORWARD ${asked} FROM kv_range`,
        rowMode: 'array',
      })
      remaining -= rows.length
      const last = rows.length < asked || remaining <= 0
      if (last) {
        await client.query('COMMIT')
        lease.release(false)
      }
      for (const row of rows) {
        host.assertOpen()
        yield row
      }
      if (last) return
      if (options.withValues) pageRows = nextValuePage(rows)
    }
  } catch (err) {
    throw host.wrap('iteration', err)
  } finally {
    // Abandoned or failed mid-way: end the transaction so the client can serve others.
    if (lease !== undefined && !lease.released) {
      const held = lease
      await held.client.query('ROLLBACK').then(
        () => held.release(false),
        () => held.release(true),
      )
    }
  }
}

/** Rows of the next fetch, sized from the last page's average row. */
function nextValuePage(rows: readonly Row[]): number {
  let bytes = 0
  for (const [key, value] of rows) bytes += key.length + (value?.length ?? 0)
  const perRow = Math.max(1, bytes / Math.max(1, rows.length))
  return Math.max(
    MIN_VALUE_PAGE_ROWS,
    Math.min(MAX_VALUE_PAGE_ROWS, Math.floor(PAGE_BYTES / perRow)),
  )
}
