// CRC-32C (Castagnoli), the checksum LevelDB puts on its log records and table blocks.
const TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC-32C of `bytes`, continuing from `crc` (0 to start). */
export function crc32c(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0
  for (let i = 0; i < bytes.length; i++)
    c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8)
  return ~c >>> 0
}

/** LevelDB's masked form of a CRC, as stored on disk (`crc32c::Unmask` undoes it). */
export function unmaskCrc(masked: number): number {
  const rot = (masked - 0xa282ead8) >>> 0
  return ((rot >>> 17) | (rot << 15)) >>> 0
}
