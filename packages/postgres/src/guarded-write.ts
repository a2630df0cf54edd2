import { guardHolds } from '@svcdb/engine'
import type { MetaGuard, MetaOp } from '@svcdb/engine'
import type { PoolClient } from 'pg'
import { keyBytes } from './kv-keys'

/** A guarded key, as the statements take it. */
interface GuardRow {
  readonly slot: string
  readonly space: string
  readonly key: Buffer
  readonly guard: MetaGuard
}

/** What {@link lockGuardedKeys} found, every guarded key locked by the transaction. */
export interface GuardedKeys {
  /** The committed value of each guarded key (`undefined`: absent), by {@link guardSlot}. */
  readonly values: ReadonlyMap<string, Uint8Array | undefined>
  /**
   * Deletes of the placeholder rows that hold absent keys and that the batch's ops do not
   * write: put first in the batch, so the ops' own writes win.
   */
  readonly placeholders: MetaOp[]
}

/**
 * One key of one space as a map key (latin1 maps each byte to one character; the space fixes
 * the key's type).
 */
export function guardSlot(entry: MetaOp | MetaGuard): string {
  return `${entry.space}\u0000${keyBytes(entry.key).toString('latin1')}`
}

/**
 * Locks every key `guards` name within `client`'s open transaction and reads its committed
 * value, so the values cannot change before the transaction ends.
 *
 * A present key is locked with `SELECT ... FOR UPDATE`. An absent key has no row to lock, so
 * a placeholder row is inserted (`ON CONFLICT DO NOTHING`): its primary key entry makes any
 * other transaction inserting that key wait for this one, and it is never seen by others (it
 * is deleted, or overwritten by the batch, before the commit, and vanishes on rollback). A
 * key deleted by another transaction between the two statements is tried again. Keys are
 * locked sorted by space and key, absent ones first, so guarded batches do not deadlock each
 * other over their guards; any other deadlock is reported by PostgreSQL and retried by the
 * caller.
 */
export async function lockGuardedKeys(
  client: PoolClient,
  table: string,
  guards: readonly MetaGuard[],
  ops: readonly MetaOp[],
): Promise<GuardedKeys> {
  const unique = new Map<string, GuardRow>()
  for (const guard of guards) {
    const slot = guardSlot(guard)
    unique.set(slot, { slot, space: guard.space, key: keyBytes(guard.key), guard })
  }
  let pending = [...unique.values()].sort(
    (a, b) => (a.space < b.space ? -1 : a.space > b.space ? 1 : 0) || Buffer.compare(a.key, b.key),
  )
  const values = new Map<string, Uint8Array | undefined>()
  const held: GuardRow[] = []
  while (pending.length > 0) {
    const inserted = await client.query<[string, Buffer]>({
      text:
        `INSERT INTO ${table} (space, key, value) ` +
        `SELECT space, key, ''::bytea FROM unnest($1::text[], $2::bytea[]) ` +
        `WITH ORDINALITY AS g(space, key, n) ORDER BY n ` +
        `ON CONFLICT (space, key) DO NOTHING RETURNING space, key`,
      values: [pending.map((row) => row.space), pending.map((row) => row.key)],
      rowMode: 'array',
    })
    const absent = new Set(inserted.rows.map(([space, key]) => slotOf(space, key)))
    for (const row of pending) {
      if (!absent.has(row.slot)) continue
      values.set(row.slot, undefined)
      held.push(row)
    }
    const present = pending.filter((row) => !absent.has(row.slot))
    if (present.length === 0) break
    const locked = await client.query<[string, Buffer, Buffer]>({
      text:
        `SELECT t.space, t.key, t.value FROM ${table} AS t ` +
        `JOIN unnest($1::text[], $2::bytea[]) AS g(space, key) ` +
        `ON t.space = g.space AND t.key = g.key ORDER BY t.space, t.key FOR UPDATE OF t`,
      values: [present.map((row) => row.space), present.map((row) => row.key)],
      rowMode: 'array',
    })
    for (const [space, key, value] of locked.rows) values.set(slotOf(space, key), value)
    // Deleted since the insert found it: absent again, so claim it with a placeholder.
    pending = present.filter((row) => !values.has(row.slot))
  }
  const written = new Set(ops.map((op) => guardSlot(op)))
  const placeholders = held
    .filter((row) => !written.has(row.slot))
    .map(({ guard }) => ({ type: 'del', space: guard.space, key: guard.key }) as MetaOp)
  return { values, placeholders }
}

/** The first guard whose expectation `values` does not meet, if any. */
export function failedGuard(
  guards: readonly MetaGuard[],
  values: ReadonlyMap<string, Uint8Array | undefined>,
): MetaGuard | undefined {
  return guards.find((guard) => !guardHolds(values.get(guardSlot(guard)), guard.expect))
}

function slotOf(space: string, key: Buffer): string {
  return `${space}\u0000${key.toString('latin1')}`
}
