import { describe, expect, it } from 'vitest'
import { crc32c, unmaskCrc } from './crc32c'

describe('crc32c', () => {
  it('matches the published CRC-32C check values', () => {
    expect(crc32c(new TextEncoder().encode('123456789'))).toBe(0xe3069283)
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa)
  })

  it('continues a CRC across pieces', () => {
    const bytes = new TextEncoder().encode('hello, world')
    expect(crc32c(bytes.subarray(5), crc32c(bytes.subarray(0, 5)))).toBe(crc32c(bytes))
  })

  it('unmasks what LevelDB masks', () => {
    const crc = crc32c(new TextEncoder().encode('foo'))
    const masked = (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0
    expect(unmaskCrc(masked)).toBe(crc)
  })
})
