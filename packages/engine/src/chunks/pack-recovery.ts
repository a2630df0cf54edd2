import { dirname } from 'node:path'
import type { MetaStore } from '../meta/meta-store'
import { CHUNK_CODEC } from './chunk-codec'
import { RECORD_HEADER_LENGTH, bodyMatches, decodeChunkRecordHeader } from './chunk-record'
import { PackFile, parsePackFileName } from './pack-file'
import type { PackFileSystem } from './pack-file-system'
import { PACK_LENGTH_RANGE, parsePackLengthKey } from '../meta/keys'
import { decodePackLength } from './pack-location'

/** A pack holding fewer bytes than were committed to it: some of its records are lost. */
export interface DamagedPack {
  pack: number
  committedLength: number
  /** Bytes the file holds (0 when the file is missing). */
  actualLength: number
}

/** What opening the pack directory found. */
export interface PackRecoveryReport {
  /** Pack files found. */
  packs: number
  /** Bytes cut off pack tails: torn records and garbage after the last complete record. */
  truncatedBytes: number
  /**
   * Packs shorter than their committed length, or missing. They are left as they are (nothing
   * is repaired or wiped); reads of their lost records fail with `CONTENT_CORRUPT`.
   */
  damaged: DamagedPack[]
}

/** The packs of a directory after recovery. */
export interface RecoveredPacks {
  packs: Map<number, PackFile>
  /** Ids of damaged packs: readable where intact, never appended to. */
  damaged: Set<number>
  /**
   * Ids of packs with no committed length: never committed to, or left behind by a compaction
   * interrupted between its commit and the deletion. Readable, never appended to (so the
   * next compaction can take them once nothing in them is live).
   */
  uncommitted: Set<number>
  /** The id the next new pack takes. */
  nextId: number
  report: PackRecoveryReport
}

async function committedLengths(meta: MetaStore): Promise<Map<number, number>> {
  const lengths = new Map<number, number>()
  for await (const [key, value] of meta.iterate('meta', PACK_LENGTH_RANGE)) {
    const id = parsePackLengthKey(key)
    if (id !== undefined) lengths.set(id, decodePackLength(value))
  }
  return lengths
}

/**
 * The end of the last complete record at or after `from`: records are walked by their framing
 * (magic, codec, lengths, CRC) until one is torn or the bytes are not a record at all.
 */
async function validEnd(pack: PackFile, from: number): Promise<number> {
  let at = from
  while (pack.size - at >= RECORD_HEADER_LENGTH) {
    let header
    try {
      header = decodeChunkRecordHeader(await pack.read(at, RECORD_HEADER_LENGTH))
    } catch {
      break
    }
    const end = at + RECORD_HEADER_LENGTH + header.storedLength
    if (end > pack.size) break
    if (header.codec === CHUNK_CODEC.raw && header.rawLength !== header.storedLength) break
    if (!bodyMatches(header, await pack.read(at + RECORD_HEADER_LENGTH, header.storedLength))) break
    at = end
  }
  return at
}

/**
 * Opens every pack of `dir` (creating the directory if needed) and cuts torn tails.
 *
 * Each pack's committed length (recorded in `meta` by every flush, in the same synced batch as
 * the index entries it covers) marks bytes known durable. From there the tail is walked
 * record by record; it is truncated after the last complete, CRC-valid record. That removes a
 * record torn by a crash and any garbage, and keeps whole records whose commit lagged behind
 * (possible when batches of concurrent groups commit out of order), so no committed record is
 * ever cut. Whole uncommitted records that survive are unreferenced bytes (void space until
 * compaction). A pack shorter than its committed length is reported, never modified.
 *
 * A pack with no committed length is walked from its start. That covers a pack whose first
 * batch never committed and a pack left by a compaction that crashed after its commit (its
 * length key deleted, no index entry pointing in): its records are whole, so nothing is cut,
 * and the next compaction removes it.
 */
export async function recoverPacks(
  files: PackFileSystem,
  dir: string,
  meta: MetaStore,
): Promise<RecoveredPacks> {
  const created = await files.mkdir(dir)
  if (created !== undefined) {
    // Each new directory's entry lives in its parent: sync the parents up to the first one made.
    for (let at = dir; dirname(at) !== at; at = dirname(at)) {
      await files.syncDirectory(dirname(at))
      if (at === created) break
    }
  }
  const lengths = await committedLengths(meta)
  const ids = (await files.readdir(dir))
    .map(parsePackFileName)
    .filter((id): id is number => id !== undefined)
    .sort((a, b) => a - b)
  const packs = new Map<number, PackFile>()
  const damaged = new Set<number>()
  const uncommitted = new Set(ids.filter((id) => !lengths.has(id)))
  const report: PackRecoveryReport = { packs: ids.length, truncatedBytes: 0, damaged: [] }
  try {
    for (const id of ids) {
      const pack = await PackFile.open(files, dir, id)
      packs.set(id, pack)
      const committed = lengths.get(id) ?? 0
      if (pack.size < committed) {
        damaged.add(id)
        report.damaged.push({ pack: id, committedLength: committed, actualLength: pack.size })
        continue
      }
      const end = await validEnd(pack, committed)
      if (end < pack.size) {
        report.truncatedBytes += pack.size - end
        await pack.truncate(end)
      }
    }
  } catch (err) {
    await Promise.all([...packs.values()].map((p) => p.close().catch(() => undefined)))
    throw err
  }
  for (const [id, committed] of lengths) {
    if (!packs.has(id) && committed > 0) {
      damaged.add(id)
      report.damaged.push({ pack: id, committedLength: committed, actualLength: 0 })
    }
  }
  const nextId = Math.max(0, ...ids, ...lengths.keys()) + 1
  return { packs, damaged, uncommitted, nextId, report }
}
