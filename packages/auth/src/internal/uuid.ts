import type { RandomSource } from '../random-source'

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** True for the textual form of any UUID (any version, either case), the nil UUID included. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value)
}

/** A random (version 4) UUID in lower case, drawn from `random`. */
export function randomUuid(random: RandomSource): string {
  const b = random.bytes(16)
  if (b.length !== 16) throw new RangeError('the random source returned the wrong number of bytes')
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  const hex = Buffer.from(b).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
