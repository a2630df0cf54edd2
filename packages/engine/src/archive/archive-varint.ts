/** Most bytes a frame length may take. */
export const MAX_LENGTH_BYTES = 4

/** Largest value a 4-byte LEB128 varint holds. */
export const MAX_LENGTH = 2 ** (7 * MAX_LENGTH_BYTES) - 1

/** The unsigned LEB128 encoding of a frame length (minimal, at most 4 bytes). */
export function encodeFrameLength(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > MAX_LENGTH)
    throw new RangeError(`frame length out of range: ${value}`)
  const out: number[] = []
  let v = value
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80)
    v >>>= 7
  }
  out.push(v)
  return Uint8Array.from(out)
}

/**
 * Reads a frame length one byte at a time from `next`, calling `fail` with the reason for a
 * varint longer than 4 bytes or not minimally encoded. Strictness keeps the archive bytes a
 * function of its content: every frame has exactly one valid encoding.
 */
export async function readFrameLength(
  next: () => Promise<number>,
  fail: (reason: string) => never,
): Promise<number> {
  let value = 0
  for (let i = 0; i < MAX_LENGTH_BYTES; i++) {
    const b = await next()
    value += (b & 0x7f) * 2 ** (7 * i)
    if (b < 0x80) {
      if (b === 0 && i > 0) fail('frame length is not minimally encoded')
      return value
    }
  }
  return fail(`frame length varint is longer than ${MAX_LENGTH_BYTES} bytes`)
}
