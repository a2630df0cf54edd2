// The gear table is part of the on-disk format: changing a single value moves every chunk
// boundary, so stored files stop deduplicating against new writes. Never change it.
//
// Generator: SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014) seeded with 0x73766364622d6731 (the ASCII bytes of "svcdb-g1" read
// big-endian). Entry i is the upper 32 bits of the (i + 1)-th output. Each step:
//   state += 0x9e3779b97f4a7c15
//   z = state; z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
//   z = (z ^ (z >> 27)) * 0x94d049bb133111eb; z ^= z >> 31   (all arithmetic mod 2^64)

/** The SplitMix64 seed of the gear table (ASCII "svcdb-g1"). */
export const GEAR_SEED = 0x73766364622d6731n

const MASK_64 = (1n << 64n) - 1n

function generateGearTable(): Int32Array {
  const table = new Int32Array(256)
  let state = GEAR_SEED
  for (let i = 0; i < 256; i++) {
    state = (state + 0x9e3779b97f4a7c15n) & MASK_64
    let z = state
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64
    z = z ^ (z >> 31n)
    // Int32Array keeps the bits; signed storage lets the chunker's loop stay in small integers.
    table[i] = Number(z >> 32n) | 0
  }
  return table
}

/**
 * The 256 gear values of FastCDC, one per byte value, as 32-bit integers (stored signed; read
 * `>>> 0` for the unsigned value). Fixed by the storage format; must not be mutated.
 */
export const GEAR: Int32Array = generateGearTable()
