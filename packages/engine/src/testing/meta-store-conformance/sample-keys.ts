import type { MetaOp, MetaStore } from '../../meta/meta-store'

/** Bytes from a list of numbers. */
export const bytes = (...values: number[]): Uint8Array => new Uint8Array(values)

/**
 * Binary keys in bytewise order: 0x00 and 0xff at both ends, prefixes before their
 * extensions, and 0x80 after 0x7f (a signed comparison would put it first).
 */
export const BINARY_KEYS: readonly Uint8Array[] = [
  bytes(0x00),
  bytes(0x00, 0x00),
  bytes(0x00, 0xff),
  bytes(0x01),
  bytes(0x7f),
  bytes(0x7f, 0xff, 0xff),
  bytes(0x80),
  bytes(0x80, 0x00),
  bytes(0xfe, 0xff),
  bytes(0xff),
  bytes(0xff, 0x00),
  bytes(0xff, 0xff),
  bytes(0xff, 0xff, 0xff),
]

/** Binary bounds that are not stored: between stored keys and above all of them. */
export const BINARY_PROBES: readonly Uint8Array[] = [
  bytes(0x00, 0x01),
  bytes(0x02),
  bytes(0x80, 0x00, 0x00),
  bytes(0xff, 0x00, 0x00),
  bytes(0xff, 0xff, 0xff, 0xff),
]

/**
 * String keys in UTF-8 byte order. U+E000 and U+FFEE sort before the emoji here although
 * their UTF-16 code units sort after it: comparing JavaScript strings gets this wrong.
 */
export const TEXT_KEYS: readonly string[] = [
  '!',
  '0',
  'A',
  'a',
  'a\u0000',
  'a!',
  'ab',
  'b',
  '~',
  '\u007f',
  '\u0080',
  'é',
  '\u07ff',
  '\u0800',
  '\ue000',
  '\uffee',
  '😀',
  '😁',
]

/** String bounds that are not stored, from below every key to above every key. */
export const TEXT_PROBES: readonly string[] = [
  ' ',
  'a\u0000\u0000',
  'aa',
  'c',
  '\u00ff',
  '\uf000',
  '😀!',
  '\u{10ffff}',
]

/** The value the suite stores under the `index`th sample key. */
export const valueAt = (index: number): Uint8Array => bytes(index, 0xa5, index ^ 0xff)

/** The sample keys in a scrambled order, so a store cannot pass by keeping insertion order. */
export function scrambled<K>(keys: readonly K[]): K[] {
  return keys
    .map((key, i) => [(i * 7 + 3) % 11, i, key] as const)
    .sort((a, b) => a[0] - b[0] || b[1] - a[1])
    .map(([, , key]) => key)
}

/** Stores every sample key of both kinds: binary ones in `obj`, strings in `sys`. */
export async function putSamples(store: MetaStore): Promise<void> {
  const ops: MetaOp[] = []
  for (const key of scrambled(BINARY_KEYS))
    ops.push({ type: 'put', space: 'obj', key, value: valueAt(BINARY_KEYS.indexOf(key)) })
  for (const key of scrambled(TEXT_KEYS))
    ops.push({ type: 'put', space: 'sys', key, value: valueAt(TEXT_KEYS.indexOf(key)) })
  await store.batch(ops, { sync: false })
}
