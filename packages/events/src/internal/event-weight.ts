import type { EventEnvelope } from '../event-types'

// Rounded-up figures for V8 on x64: the envelope, its id and payload objects ≈ 400 bytes; an
// entry ≈ 100 plus its path (two bytes a character at worst), and once streamed, its share of
// the encoded SSE frame cached beside the envelope (about the path again).
const ENVELOPE = 400
const ENTRY = 100
const OTHER_PAYLOAD = 600

/**
 * Bytes an event keeps alive while buffered for replay, an upper estimate. Entries events
 * carry up to a thousand paths, so they are weighed by their paths; other payloads are small.
 */
export function eventWeight(envelope: EventEnvelope): number {
  const payload = envelope.payload as { entries?: readonly { path: string }[] }
  if (!Array.isArray(payload.entries)) return ENVELOPE + OTHER_PAYLOAD
  let sum = ENVELOPE
  for (const entry of payload.entries) sum += ENTRY + 3 * entry.path.length
  return sum
}
