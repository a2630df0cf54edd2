import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs'

/**
 * One line of the journal. `write` and `delete` name a path; `sha256` is the SHA-256 of the
 * whole content the client sent (not the server's content hash, so a read-back is checked
 * against bytes, not against the server's own word). `snapshot` records a snapshot the server
 * acknowledged and `promote` a promote to one of them. `observed` settles a path whose last
 * operation was in flight at a kill: after the check, its state is whatever was read back.
 */
export type JournalRecord =
  | { kind: 'write'; path: string; sha256: string; size: number; etag: string }
  | { kind: 'delete'; path: string }
  | { kind: 'snapshot'; name: string; version: string }
  | { kind: 'promote'; name: string; head: string }
  | { kind: 'observed'; path: string; sha256: string | null }

/**
 * The client-side record of acknowledged operations: one JSON line per operation, appended
 * with `writeSync` and made durable with `fsyncSync` before the operation counts as
 * acknowledged by the test. An operation is appended only after its 2xx answer was read, so
 * the journal never claims more than the server promised.
 */
export interface CrashJournal {
  readonly path: string
  append(record: JournalRecord): void
  /** Every record, read back from the file (not from memory). */
  records(): JournalRecord[]
  close(): void
}

/** Opens (creating or appending to) the journal file at `path`. */
export function openCrashJournal(path: string): CrashJournal {
  const fd = openSync(path, 'a')
  return {
    path,
    append(record) {
      writeSync(fd, `${JSON.stringify(record)}\n`)
      fsyncSync(fd)
    },
    records() {
      return readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as JournalRecord)
    },
    close() {
      closeSync(fd)
    },
  }
}
