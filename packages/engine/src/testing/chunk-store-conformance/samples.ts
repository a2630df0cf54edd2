import { pseudoRandomBytes } from '../pseudo-random-bytes'

/** Text-like bytes that DEFLATE shrinks several times. */
export function prose(length: number, seed: number): Uint8Array {
  const words = ['version', 'chunk', 'the', 'store', 'of', 'hash', 'tree', 'pack', 'a', 'file']
  let text = ''
  for (let i = seed; text.length < length; i++) text += `${words[(i * 7 + (i >> 2)) % 10]} `
  return new TextEncoder().encode(text.slice(0, length))
}

/** Mixed sizes, so a tiered store puts some in each tier; shuffled sizes spread packs. */
export const mixed = (count: number, seed: number): Uint8Array[] =>
  Array.from({ length: count }, (_, i) =>
    (i % 3 === 1 ? prose : pseudoRandomBytes)(3000 + ((i * 7919) % 37_000), seed + i),
  )
