import type { BlobStore } from '../../chunks/blob-store'

/** Puts many small objects, a bounded number at a time (a real S3 server is the target). */
export async function putMany(
  store: BlobStore,
  keys: readonly string[],
  bytesOf: (i: number) => Uint8Array,
): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < keys.length) {
      const i = next++
      await store.put(keys[i] as string, bytesOf(i))
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
}

/** The number as a fixed-width decimal, so keys made from it sort as the numbers do. */
export const padded = (i: number): string => String(i).padStart(5, '0')

/** Shows bytes as hex, so a mismatch prints something readable. */
export const hex = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : Buffer.from(bytes).toString('hex')

/** True when both hold the same bytes. */
export const sameBytes = (a: Uint8Array | undefined, b: Uint8Array): boolean =>
  a !== undefined && a.length === b.length && Buffer.compare(a, b) === 0

/**
 * Keys whose bytewise (UTF-8) order differs from JavaScript's UTF-16 order: U+FF61 sorts
 * before U+1F600 as bytes (EF… < F0…) but after it as code units (FF61 > D83D). Also a space,
 * `+`, `%` and a multi-level path, which an HTTP client must encode.
 */
export const ODD_KEYS = [
  'odd/a b',
  'odd/a+b',
  'odd/a%2Fb',
  'odd/a/b/c',
  'odd/é',
  'odd/\u07ff',
  'odd/\uff61',
  'odd/😀',
  'odd/😀x',
] as const
