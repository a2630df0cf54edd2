import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../../testing/pseudo-random-bytes'
import { createLevelMetaStore } from '../level-meta-store'
import type { MetaStore } from '../meta-store'
import {
  CHANGE_RECORD_RANGE,
  COUNTERS_KEY,
  changeRecordKey,
  parseChangeRecordKey,
  FORMAT_KEY,
  HEAD,
  PACK_LENGTH_RANGE,
  assertRefName,
  assertSystemNamespace,
  describeRef,
  dirHashOfRecordKey,
  forkOf,
  indexRecordKey,
  isSequenceKey,
  namesOf,
  packLengthKey,
  parseIndexRecordKey,
  parsePackLengthKey,
  parseRefKey,
  parseSequenceKey,
  parseSystemKey,
  refKey,
  refName,
  sequenceKey,
  systemKey,
} from './index'

async function openMemoryMeta(): Promise<MetaStore> {
  const db = new MemoryLevel()
  await db.open()
  return createLevelMetaStore(db)
}

const utf8 = new TextEncoder()

/** Bytewise order of UTF-8 strings: the order of the store's text keys. */
function compareUtf8(a: string, b: string): number {
  const x = utf8.encode(a)
  const y = utf8.encode(b)
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number)
  return x.length - y.length
}

/** `count` seeded sequences spread over every magnitude up to Number.MAX_SAFE_INTEGER. */
function sequences(count: number, seed: number): number[] {
  const bytes = pseudoRandomBytes(count * 8, seed)
  const view = new DataView(bytes.buffer)
  return Array.from({ length: count }, (_, i) => {
    const wide = Number(view.getBigUint64(i * 8) % BigInt(Number.MAX_SAFE_INTEGER + 1))
    return Math.floor(wide / 10 ** (i % 16))
  })
}

describe('sequence keys', () => {
  it('round-trip every sequence, 0 and the largest safe integer included', () => {
    for (const seq of [0, 1, 9, 10, Number.MAX_SAFE_INTEGER, ...sequences(2000, 7)]) {
      const key = sequenceKey(seq)
      expect(key).toHaveLength(16)
      expect(isSequenceKey(key)).toBe(true)
      expect(parseSequenceKey(key)).toBe(seq)
    }
  })

  it('keep the bytes of existing databases', () => {
    expect(sequenceKey(0)).toBe('0000000000000000')
    expect(sequenceKey(42)).toBe('0000000000000042')
    expect(sequenceKey(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991')
  })

  it('sort in the store in numeric order, so reverse iteration finds the latest sequence', async () => {
    const meta = await openMemoryMeta()
    const seqs = [...new Set([0, Number.MAX_SAFE_INTEGER, ...sequences(500, 11)])]
    await meta.batch(
      seqs.map((seq) => ({
        type: 'put',
        space: 'log',
        key: sequenceKey(seq),
        value: new Uint8Array(),
      })),
      { sync: false },
    )
    const stored: number[] = []
    for await (const key of meta.keys('log')) stored.push(parseSequenceKey(key) as number)
    expect(stored).toEqual([...seqs].sort((a, b) => a - b))
    const pivot = seqs[3] as number
    const above: number[] = []
    for await (const key of meta.keys('log', { gt: sequenceKey(pivot) }))
      above.push(parseSequenceKey(key) as number)
    expect(above).toEqual(stored.filter((seq) => seq > pivot))
    await meta.close()
  })

  it('refuse what no sequence is', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1, Infinity])
      expect(() => sequenceKey(bad)).toThrow(RangeError)
    for (const key of ['', '42', '00000000000000042', '000000000000004x', '9999999999999999']) {
      expect(parseSequenceKey(key)).toBeUndefined()
    }
    expect(isSequenceKey('9999999999999999')).toBe(true)
    expect(isSequenceKey('000000000000004x')).toBe(false)
  })
})

/** `count` seeded pack ids, small ones and ones past the six padded digits. */
function packIds(count: number, seed: number): number[] {
  const bytes = pseudoRandomBytes(count * 4, seed)
  const view = new DataView(bytes.buffer)
  return Array.from({ length: count }, (_, i) => view.getUint32(i * 4) >>> (i % 32))
}

describe('meta keys', () => {
  it('round-trip pack ids, 0 and ids of more than six digits included', () => {
    for (const id of [0, 1, 999_999, 1_000_000, 0xffff_ffff, ...packIds(2000, 3)])
      expect(parsePackLengthKey(packLengthKey(id))).toBe(id)
  })

  it('keep the bytes of existing databases', () => {
    expect(packLengthKey(1)).toBe('pack.000001')
    expect(packLengthKey(1_234_567)).toBe('pack.1234567')
    expect(FORMAT_KEY).toBe('format')
    expect(COUNTERS_KEY).toBe('counters')
  })

  it('give pack lengths a range holding every pack length and no other meta key', async () => {
    const meta = await openMemoryMeta()
    const ids = [...new Set([0, 999_999, 1_000_000, ...packIds(300, 5)])]
    const neighbours = [FORMAT_KEY, COUNTERS_KEY, 'pack', 'pack-000001', 'pack/', 'pack0', 'pacl.1']
    await meta.batch(
      [...ids.map(packLengthKey), ...neighbours].map((key) => ({
        type: 'put',
        space: 'meta',
        key,
        value: new Uint8Array(8),
      })),
      { sync: false },
    )
    const found: number[] = []
    for await (const key of meta.keys('meta', PACK_LENGTH_RANGE)) {
      const id = parsePackLengthKey(key)
      expect(id, key).toBeDefined()
      found.push(id as number)
    }
    expect(found.sort((a, b) => a - b)).toEqual(ids.sort((a, b) => a - b))
    await meta.close()
  })

  it('tell other keys apart and refuse ids that are not ones', () => {
    for (const key of [
      FORMAT_KEY,
      COUNTERS_KEY,
      'pack.',
      'pack.12345',
      'pack.00000a',
      'pack.-00001',
    ])
      expect(parsePackLengthKey(key)).toBeUndefined()
    for (const bad of [-1, 0.5, Number.NaN]) expect(() => packLengthKey(bad)).toThrow(RangeError)
  })
})

describe('change record keys', () => {
  it('round-trip sequences, sort numerically, and keep to their range of the meta space', async () => {
    const meta = await openMemoryMeta()
    const seqs = [...new Set([0, 1, 10, Number.MAX_SAFE_INTEGER, ...sequences(200, 13)])]
    for (const seq of seqs) expect(parseChangeRecordKey(changeRecordKey(seq))).toBe(seq)
    expect(changeRecordKey(42)).toBe('changes.0000000000000042')
    const neighbours = [FORMAT_KEY, COUNTERS_KEY, 'changes', 'changes/1', 'pack.000001', 'change.1']
    await meta.batch(
      [...seqs.map(changeRecordKey), ...neighbours].map((key) => ({
        type: 'put',
        space: 'meta',
        key,
        value: new Uint8Array(1),
      })),
      { sync: false },
    )
    const found: number[] = []
    for await (const key of meta.keys('meta', CHANGE_RECORD_RANGE))
      found.push(parseChangeRecordKey(key) as number)
    expect(found).toEqual([...seqs].sort((a, b) => a - b))
    for (const key of [...neighbours, 'changes.42', 'changes.000000000000004x'])
      expect(parseChangeRecordKey(key)).toBeUndefined()
    expect(() => changeRecordKey(-1)).toThrow(RangeError)
    await meta.close()
  })
})

/** A seeded string of `length` code points mixing ASCII, `/`, Latin, CJK and astral ones. */
function sampleString(length: number, seed: number): string {
  const pools = [
    [0x20, 0x7e],
    [0x2f, 0x2f],
    [0xc0, 0x24f],
    [0x4e00, 0x9fff],
    [0x1f300, 0x1f6ff],
  ] as const
  const bytes = pseudoRandomBytes(length * 4 + 4, seed)
  const view = new DataView(bytes.buffer)
  let out = ''
  for (let i = 0; i < length; i++) {
    const pick = view.getUint32(i * 4)
    const [low, high] = pools[pick % pools.length] as readonly [number, number]
    out += String.fromCodePoint(low + ((pick >>> 8) % (high - low + 1)))
  }
  return out
}

/** `count` seeded strings of 0 to 40 code points. */
function sampleStrings(count: number, seed: number): string[] {
  return Array.from({ length: count }, (_, i) => sampleString((seed * 31 + i * 7) % 41, seed + i))
}

describe('ref keys', () => {
  it('round-trip every kind and name, empty and non-ASCII names included', () => {
    for (const kind of ['snapshot', 'fork', 'import'] as const)
      for (const name of ['', 'a', 'snap/x', 'Ünïcødé-名前-🙂', ...sampleStrings(300, 21)]) {
        const ref = refKey(kind, name)
        expect(parseRefKey(ref)).toEqual({ kind, name })
        expect(refName(kind, ref)).toBe(name)
        expect(forkOf(ref)).toBe(kind === 'fork' ? name : undefined)
      }
  })

  it('keep the bytes of existing databases', () => {
    expect(HEAD).toBe('HEAD')
    expect(refKey('snapshot', 'v1')).toBe('snap/v1')
    expect(refKey('fork', 'draft')).toBe('fork/draft')
    expect(refKey('import', 'ab')).toBe('import/ab')
  })

  it('give HEAD no kind and describe refs in words', () => {
    expect(parseRefKey(HEAD)).toBeUndefined()
    expect(forkOf(HEAD)).toBeUndefined()
    expect(describeRef(HEAD)).toBe('HEAD')
    expect(describeRef(refKey('snapshot', 'a'))).toBe('snapshot "a"')
    expect(describeRef(refKey('fork', 'b'))).toBe('fork "b"')
  })

  it('list the names of one kind, sorted like the store sorts keys', () => {
    const names = ['b', 'a', 'B', 'a.1', 'a-1', 'z_']
    const refs = [HEAD, ...names.map((n) => refKey('fork', n)), refKey('snapshot', 'x')]
    expect(namesOf('fork', refs)).toEqual([...names].sort((a, b) => compareUtf8(a, b)))
    expect(namesOf('snapshot', refs)).toEqual(['x'])
  })

  it('accept only portable snapshot and fork names', () => {
    for (const name of ['a', 'A1', 'v1.0_rc-2', 'x'.repeat(128)])
      expect(() => assertRefName('fork', name)).not.toThrow()
    for (const name of ['', '.a', '-a', '_a', 'a/b', 'é', 'x'.repeat(129), 'a'.repeat(64), 7])
      expect(() => assertRefName('snapshot', name)).toThrow(/invalid snapshot name/)
  })
})

describe('system keys', () => {
  const namespaces = ['a', 'a-b', 'a0', 'ab', 'identity', 'tasks', 'z'.repeat(32)]

  it('round-trip every namespace and key, empty and non-ASCII keys included', () => {
    for (const namespace of namespaces)
      for (const key of ['', '/', 'a/b', 'Ünïcødé 🙂', ...sampleStrings(200, 33)])
        expect(parseSystemKey(systemKey(namespace, key))).toEqual({ namespace, key })
    expect(systemKey('identity', 'user/1')).toBe('identity/user/1')
  })

  it('keep namespaces apart in the store: a prefix scan from a key finds only its namespace', async () => {
    const meta = await openMemoryMeta()
    const stored = namespaces.flatMap((ns, i) =>
      ['', 'a', 'b/c', ...sampleStrings(60, 50 + i)].map((key) => ({ namespace: ns, key })),
    )
    await meta.batch(
      stored.map(({ namespace, key }) => ({
        type: 'put',
        space: 'sys',
        key: systemKey(namespace, key),
        value: new Uint8Array(),
      })),
      { sync: false },
    )
    for (const namespace of namespaces)
      for (const prefix of ['', 'a', 'b/', 'é']) {
        // The scan of SystemStore.entries(): from the first key, while keys share its start.
        const from = systemKey(namespace, prefix)
        const found = new Set<string>()
        for await (const key of meta.keys('sys', { gte: from })) {
          if (!key.startsWith(from)) break
          found.add(parseSystemKey(key)?.key as string)
        }
        const expected = stored
          .filter((s) => s.namespace === namespace && s.key.startsWith(prefix))
          .map((s) => s.key)
        expect([...found].sort()).toEqual([...new Set(expected)].sort())
      }
    await meta.close()
  })

  it('refuse namespaces that could hold the separator, and keys without one', () => {
    for (const ns of namespaces) expect(() => assertSystemNamespace(ns)).not.toThrow()
    for (const ns of ['', 'A', '1a', 'a/b', 'a_b', 'z'.repeat(33)])
      expect(() => assertSystemNamespace(ns)).toThrow(/invalid system namespace/)
    expect(parseSystemKey('no-separator')).toBeUndefined()
    expect(parseSystemKey('Bad/key')).toBeUndefined()
  })
})

describe('index keys', () => {
  it('round-trip a directory hash and a config hash', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const dirHash = pseudoRandomBytes(32, seed)
      const configHash = pseudoRandomBytes(32, seed + 10_000)
      const key = indexRecordKey(dirHash, configHash)
      expect(key).toHaveLength(64)
      expect(parseIndexRecordKey(key)).toEqual({ dirHash, configHash })
      expect(dirHashOfRecordKey(key)).toEqual(dirHash)
    }
  })

  it('keep the bytes of existing databases: the two hashes, one after the other', () => {
    const key = indexRecordKey(new Uint8Array([1, 2]), new Uint8Array([3, 4]))
    expect([...key]).toEqual([1, 2, 3, 4])
  })

  it('refuse hashes of different lengths, which would not split back', () => {
    expect(() => indexRecordKey(new Uint8Array(32), new Uint8Array(31))).toThrow(RangeError)
  })
})
