import type { ChunkSweep, SweepEntry } from './chunk-sweep'

/**
 * The {@link ChunkSweep} of a tiered store whose tiers both have one: entries of the small
 * tier, then of the large one; each entry goes back to the tier whose space holds it (the
 * level store keeps records in `chunk`, the blob store its index in `chunkidx`).
 */
export function tieredChunkSweep(
  small: ChunkSweep,
  large: ChunkSweep,
  smallSpace: SweepEntry['space'],
): ChunkSweep {
  const tierOf = (entry: SweepEntry): ChunkSweep => (entry.space === smallSpace ? small : large)
  return {
    refreshMs: Math.max(small.refreshMs, large.refreshMs),
    async *entries() {
      yield* small.entries()
      yield* large.entries()
    },
    async reread(entries) {
      const ofSmall = entries.filter((e) => tierOf(e) === small)
      const ofLarge = entries.filter((e) => tierOf(e) === large)
      const [a, b] = await Promise.all([small.reread(ofSmall), large.reread(ofLarge)])
      let i = 0
      let j = 0
      return entries.map((e) => (tierOf(e) === small ? a[i++] : b[j++]))
    },
    removal(entries) {
      const a = small.removal(entries.filter((e) => tierOf(e) === small))
      const b = large.removal(entries.filter((e) => tierOf(e) === large))
      return {
        ops: [...a.ops, ...b.ops],
        guards: [...a.guards, ...b.guards],
        async afterCommit() {
          await Promise.all([a.afterCommit(), b.afterCommit()])
        },
      }
    },
  }
}
