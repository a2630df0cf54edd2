import { describe, expect, it } from 'vitest'
import type { Database } from '../../database'
import type { SequencedChange } from '../../index'
import { collect } from '../meta-store-conformance/async-results'
import type { SharedDatabaseSuiteContext } from './fixture'

/** Waits (bounded: 10 s) until `done()` holds; fails naming `what` otherwise. */
async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (done()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Every change `db` reports from now on. */
function listen(db: Database): SequencedChange[] {
  const seen: SequencedChange[] = []
  db.onChange((change) => seen.push(change))
  return seen
}

/** The entries changes, as the tests compare them. */
const paths = (changes: readonly SequencedChange[]) =>
  changes.map((c) => `${c.seq} ${c.type} ${'entries' in c ? c.entries.map((e) => e.path) : ''}`)

/** Every node reports the same changes as the node that wrote them, live and replayed. */
export function changeTests(ctx: SharedDatabaseSuiteContext): void {
  describe('changes', () => {
    it('reports on B the changes A reported, entry for entry: a new directory, folded writes, replay', async () => {
      const { a, b } = await ctx.open()
      const onA = listen(a)
      const onB = listen(b)
      // A file in a new directory: B reports the file, not the directory a diff shows.
      await a.writeFile('/order/0.txt', 'zero')
      // Concurrent writes: A's groups fold several into one commit, reported per write.
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => a.writeFile(`/order/n${i % 2}/${i}.txt`, `${i}`)),
      )
      await b.writeFile('/b/1.txt', 'one')
      await a.delete('/order/n0', { recursive: true })
      await a.snapshots.create('s', { metadata: { by: 'suite' } })
      // 10 created (9 on A, 1 on B), 1 deleted, 1 snapshot. A reports B's write, and in
      // shared mode its own too, once it has read them from the store: wait for all.
      const total = 12
      await until('A to report what A and B committed', () => onA.length >= total)
      await until('B to report what A and B reported', () => onB.length >= total)
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(onB).toEqual(onA)
      expect(paths(onA).slice(0, 1)).toEqual(['1 entries_created /order/0.txt'])
      // At least one commit folded several writes: several changes share its position.
      const seqs = onA.map((c) => c.seq)
      expect(new Set(seqs).size).toBeLessThan(seqs.length)
      expect(onA.filter((c) => c.type === 'entries_created')).toHaveLength(10)
      // Replayed on either node: the same changes again.
      expect(await collect(b.replayChanges({ after: 0 }))).toEqual(onA)
      expect(await collect(a.replayChanges({ after: 1 }))).toEqual(onA.slice(1))
    })
  })
}
