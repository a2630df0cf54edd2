import { RECORD_HEADER_LENGTH } from './chunk-record'
import type { PackLocation } from './pack-location'

/** Largest span of a pack read in one call: bounds what one run holds in memory. */
export const MAX_RUN_BYTES = 4 * 1024 * 1024

/** Consecutive records of one pack, back to back on disk: read with one positional read. */
export interface PackRun {
  pack: number
  /** Offset of the first record's header. */
  offset: number
  /** Bytes from the first header to the end of the last record. */
  length: number
  /** Indexes (into the caller's list) of the records, in file order. */
  items: number[]
}

/**
 * Groups records, in the caller's order, into runs a single read can fetch: each record
 * starts where the previous one ends in the same pack (chunks of one upload are appended
 * together), and a run stays under `maxBytes` unless one record alone is larger.
 */
export function packRuns(
  locations: readonly PackLocation[],
  maxBytes: number = MAX_RUN_BYTES,
): PackRun[] {
  const runs: PackRun[] = []
  let run: PackRun | undefined
  locations.forEach((location, i) => {
    const length = RECORD_HEADER_LENGTH + location.storedLength
    if (
      run !== undefined &&
      run.pack === location.pack &&
      run.offset + run.length === location.offset &&
      run.length + length <= maxBytes
    ) {
      run.length += length
      run.items.push(i)
      return
    }
    run = { pack: location.pack, offset: location.offset, length, items: [i] }
    runs.push(run)
  })
  return runs
}
