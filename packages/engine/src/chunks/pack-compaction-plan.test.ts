import { describe, expect, it } from 'vitest'
import { planCompaction } from './pack-compaction-plan'
import type { PackUsage } from './pack-compaction-plan'

const pack = (
  id: number,
  size: number,
  live: number,
  more: Partial<PackUsage> = {},
): PackUsage => ({
  id,
  size,
  live,
  movable: true,
  damaged: false,
  ...more,
})

describe('pack-compaction-plan', () => {
  it('rewrites packs whose dead share reaches the ratio and drops those with nothing live', () => {
    const plan = planCompaction(
      [pack(4, 1000, 500), pack(2, 1000, 501), pack(3, 1000, 0), pack(1, 0, 0), pack(5, 1000, 100)],
      0.5,
    )
    expect(plan).toEqual({ rewrite: [4, 5], drop: [1, 3], deadBytesKept: 499 })
  })

  it('never touches a pack that is not movable, and counts its dead bytes', () => {
    const plan = planCompaction(
      [pack(1, 1000, 0, { movable: false }), pack(2, 1000, 100, { movable: false })],
      0.5,
    )
    expect(plan).toEqual({ rewrite: [], drop: [], deadBytesKept: 1900 })
  })

  it('drops a damaged pack only when nothing in it is live', () => {
    const plan = planCompaction(
      [pack(1, 1000, 0, { damaged: true }), pack(2, 1000, 10, { damaged: true })],
      0.5,
    )
    expect(plan).toEqual({ rewrite: [], drop: [1], deadBytesKept: 990 })
  })

  it('does not copy a fully live pack even at ratio 0, nor one the index overruns', () => {
    const plan = planCompaction([pack(1, 1000, 1000), pack(2, 1000, 1200), pack(3, 1000, 999)], 0)
    expect(plan).toEqual({ rewrite: [3], drop: [], deadBytesKept: 0 })
  })
})
