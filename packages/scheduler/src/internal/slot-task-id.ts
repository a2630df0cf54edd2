import { createHash } from 'node:crypto'

/**
 * The id of the task that cron schedule `scheduleId` enqueues for its run due at `slotMs`:
 * the same on every node, so that creating it only if absent lets exactly one node enqueue
 * the slot. A UUIDv7 like the runner's own ids (48 bits of `slotMs`, so it sorts with them
 * by time), its other 74 bits taken from SHA-256 of the schedule id and the slot.
 */
export function slotTaskId(scheduleId: string, slotMs: number): string {
  // Schedule ids hold no control characters, so "\n" keeps (id, slot) pairs apart.
  // Synchronous: an async digest would let a fake clock's timers run past a tick's enqueue.
  const hash = createHash('sha256')
    .update(`cron\n${scheduleId}\n${String(slotMs)}`)
    .digest()
  const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')
  const time = Math.max(0, Math.floor(slotMs)).toString(16).padStart(12, '0').slice(-12)
  const randA = (0x7000 | (((hash[0] ?? 0) << 4) & 0xff0) | ((hash[1] ?? 0) >> 4)).toString(16)
  const randB = hex(Uint8Array.of(((hash[2] ?? 0) & 0x3f) | 0x80, ...hash.subarray(3, 10)))
  return `${time.slice(0, 8)}-${time.slice(8)}-${randA}-${randB.slice(0, 4)}-${randB.slice(4)}`
}
