import type { MetaStore } from '../meta/meta-store'
import { RECORD_HEADER_LENGTH } from './chunk-record'
import { decodePackLocation } from './pack-location'

/** Live bytes per pack id: the records the chunk index points at, header included. */
export async function liveBytesByPack(meta: MetaStore): Promise<Map<number, number>> {
  const live = new Map<number, number>()
  for await (const [, entry] of meta.iterate('chunkidx')) {
    const { pack, storedLength } = decodePackLocation(entry)
    live.set(pack, (live.get(pack) ?? 0) + RECORD_HEADER_LENGTH + storedLength)
  }
  return live
}

/** One pack as the planner sees it. */
export interface PackUsage {
  id: number
  size: number
  live: number
  /** False for packs that must stay: appended to, or holding records not yet committed. */
  movable: boolean
  /** A pack shorter than its committed length: only removed when nothing in it is live. */
  damaged: boolean
}

/** Which packs a compaction rewrites or removes, and the dead bytes it leaves. */
export interface CompactionPlan {
  /** Packs whose live records are copied before they are removed, in id order. */
  rewrite: number[]
  /** Packs without a live record, removed without copying. */
  drop: number[]
  /** Dead bytes of the packs that stay. */
  deadBytesKept: number
}

/**
 * Picks the packs to compact: every movable pack with no live byte is dropped; a movable,
 * intact pack is rewritten when its dead share reaches `minDeadRatio` (and it has dead bytes
 * at all: copying a fully live pack gains nothing).
 */
export function planCompaction(usage: Iterable<PackUsage>, minDeadRatio: number): CompactionPlan {
  const plan: CompactionPlan = { rewrite: [], drop: [], deadBytesKept: 0 }
  for (const { id, size, live, movable, damaged } of usage) {
    const dead = Math.max(0, size - live)
    if (movable && live === 0) plan.drop.push(id)
    else if (movable && !damaged && live < size && dead / size >= minDeadRatio) {
      plan.rewrite.push(id)
    } else plan.deadBytesKept += dead
  }
  plan.rewrite.sort((a, b) => a - b)
  plan.drop.sort((a, b) => a - b)
  return plan
}
