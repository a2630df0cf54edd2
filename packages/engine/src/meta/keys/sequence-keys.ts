// Keys of the `log` (version log) and `headlog` (HEAD log) spaces: the sequence number of a
// ref move, zero-padded to 16 digits so that bytewise key order is numeric order for every
// safe integer (Number.MAX_SAFE_INTEGER has 16 digits). A HEAD log record shares the
// sequence of its version log record.
const DIGITS = 16
const SEQUENCE_KEY = /^\d{16}$/

/** The `log` / `headlog` key of sequence `seq` (a non-negative safe integer). */
export function sequenceKey(seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 0)
    throw new RangeError(`a sequence key needs a non-negative safe integer, got ${seq}`)
  return String(seq).padStart(DIGITS, '0')
}

/** True when `key` has the shape of a sequence key (16 decimal digits). */
export function isSequenceKey(key: string): boolean {
  return SEQUENCE_KEY.test(key)
}

/** The sequence of a `log` / `headlog` key, or `undefined` when `key` is not one. */
export function parseSequenceKey(key: string): number | undefined {
  if (!isSequenceKey(key)) return undefined
  const seq = Number(key)
  return Number.isSafeInteger(seq) ? seq : undefined
}
