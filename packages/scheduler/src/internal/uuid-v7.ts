/**
 * Makes a generator of UUIDv7 strings (RFC 9562) whose order, as strings, is the order in
 * which they were made: 48 bits of Unix ms, then a 12-bit counter that breaks ties within one
 * millisecond (and carries into the time when it overflows or the clock steps back), then 62
 * random bits. Task ids sort by creation, so an ordered store lists tasks oldest first.
 */
export function createUuidV7Generator(now: () => number): () => string {
  let lastMs = -1
  let counter = 0
  const random = new Uint8Array(8)
  return () => {
    const ms = Math.max(0, Math.floor(now()))
    if (ms > lastMs) {
      lastMs = ms
      counter = 0
    } else {
      counter += 1
      if (counter > 0xfff) {
        lastMs += 1
        counter = 0
      }
    }
    crypto.getRandomValues(random)
    const time = lastMs.toString(16).padStart(12, '0').slice(-12)
    const randA = (0x7000 | counter).toString(16)
    const variant = ((random[0] ?? 0) & 0x3f) | 0x80
    const randB = [variant, ...random.subarray(1)].map((b) => b.toString(16).padStart(2, '0'))
    return `${time.slice(0, 8)}-${time.slice(8)}-${randA}-${randB.slice(0, 2).join('')}-${randB.slice(2).join('')}`
  }
}
