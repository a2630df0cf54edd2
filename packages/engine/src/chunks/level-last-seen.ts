import { decodeChunkRecordHeader, RECORD_HEADER_LENGTH } from './chunk-record'
import type { LastSeenCodec } from './last-seen'
import { decodeStamp, encodeStamp } from './last-seen'

// A level store that records last_seen keeps it as 8 bytes after the record
// (`header + stored bytes + stamp`); records without them (written before) read as stamp 0.
const STAMP_LENGTH = 8

/** The record without its stamp, and the stamp (0 when absent). */
export function splitLevelRecord(value: Uint8Array): { record: Uint8Array; lastSeen: number } {
  const end = RECORD_HEADER_LENGTH + decodeChunkRecordHeader(value).storedLength
  if (value.length !== end + STAMP_LENGTH) return { record: value, lastSeen: 0 }
  return { record: value.subarray(0, end), lastSeen: decodeStamp(value, end) }
}

/** `record` (header + stored bytes) stamped with `at`. */
export function stampLevelRecord(record: Uint8Array, at: number): Uint8Array {
  const out = new Uint8Array(record.length + STAMP_LENGTH)
  out.set(record, 0)
  out.set(encodeStamp(at), record.length)
  return out
}

/** The `last_seen` codec of level store records. */
export const levelLastSeenCodec: LastSeenCodec = {
  lastSeenOf: (value) => splitLevelRecord(value).lastSeen,
  withLastSeen: (value, at) => stampLevelRecord(splitLevelRecord(value).record, at),
}
