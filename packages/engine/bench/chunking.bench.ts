// The chunk layer alone: FastCDC, chunk hashing, and durable pack appends (DESIGN §9 anchors:
// CDC ~1.6 GB/s, SHA-256 ~1.1 GB/s, pack append with fdatasync ~1.2 GB/s). Each figure is the
// median of a few runs after a warm-up, so one noisy neighbour on the shared machine does not
// decide it. MB/s here means MiB per second, as in the engine bench.
import { randomFillSync } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { createChunker, createChunkerWithScanner } from '../src/chunking/fastcdc'
import type { Chunker } from '../src/chunking/fastcdc'
import { createJsGearScanner } from '../src/chunking/gear-scan'
import { createPackChunkStore } from '../src/chunks/pack-chunk-store'
import { createHasher } from '../src/hashing/create-hasher'
import type { HashAlgorithm } from '../src/hashing/hasher'
import { createLevelMetaStore } from '../src/meta/level-meta-store'

const MiB = 1024 * 1024
const SIZE = 256 * MiB
const RUNS = 3
const mbps = (bytes: number, ms: number): number => bytes / MiB / (ms / 1000)

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
}

let random: Uint8Array | undefined
/** 256 MiB of random bytes, made once for every bench of this file. */
function randomData(): Uint8Array {
  random ??= randomFillSync(new Uint8Array(SIZE))
  return random
}

/** Text-like bytes (DEFLATE shrinks them several times), with enough variety to chunk. */
function textData(size: number): Uint8Array {
  const words = ['svcdb', 'chunk', 'version', 'the', 'of', 'tree', 'hash', 'pack', 'store', 'a']
  const out = new Uint8Array(size)
  let x = 1
  for (let at = 0; at < size;) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0
    const word = words[x % words.length] as string
    for (let i = 0; i < word.length && at < size; i++) out[at++] = word.charCodeAt(i)
    if (at < size) out[at++] = (x >>> 8) % 13 === 0 ? 10 : 32
  }
  return out
}

function chunkAll(data: Uint8Array, chunker: Chunker = createChunker()): Uint8Array[] {
  const chunks: Uint8Array[] = []
  for (let at = 0; at < data.length; at += MiB)
    chunks.push(...chunker.push(data.subarray(at, at + MiB)))
  chunks.push(...chunker.end())
  return chunks
}

async function hashRate(algorithm: HashAlgorithm) {
  const hasher = await createHasher(algorithm)
  const chunks = chunkAll(randomData())
  for (const chunk of chunks.slice(0, 200)) hasher.hashDomain('chunk', chunk) // warm-up
  const times: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    for (const chunk of chunks) hasher.hashDomain('chunk', chunk)
    times.push(performance.now() - started)
  }
  return mbps(SIZE, median(times))
}

/** Stages `data`'s chunks (32 in flight), then flush + one synced batch: a durable ingest. */
async function packIngest(data: Uint8Array): Promise<{ rate: number; stored: number }> {
  const hasher = await createHasher('sha256')
  const chunks = chunkAll(data)
  const hashes = chunks.map((c) => hasher.hashDomain('chunk', c))
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-bench-pack-'))
  const level = new ClassicLevel(join(dir, 'meta'), { keyEncoding: 'view', valueEncoding: 'view' })
  await level.open()
  const meta = createLevelMetaStore(level)
  const store = await createPackChunkStore({ dir: join(dir, 'packs'), meta })
  try {
    const started = performance.now()
    const ops = []
    let stored = 0
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < chunks.length) {
        const i = next++
        const result = await store.stage(hashes[i] as Uint8Array, chunks[i] as Uint8Array)
        ops.push(...result.ops)
        stored += result.storedBytes
      }
    }
    await Promise.all(Array.from({ length: 32 }, worker))
    ops.push(...(await store.flush()))
    await meta.batch(ops, { sync: true })
    store.committed()
    return { rate: mbps(data.length, performance.now() - started), stored }
  } finally {
    await store.close()
    await meta.close()
    await rm(dir, { recursive: true, force: true })
  }
}

export const benchmarks = [
  {
    name: 'chunking FastCDC (256 MiB random, 1 MiB pushes)',
    async run() {
      const data = randomData()
      // The default gear loop (WebAssembly) and the plain JavaScript one it falls back to.
      const rate = (make: () => Chunker) => {
        chunkAll(data.subarray(0, 32 * MiB), make()) // warm-up: let the JIT optimise first
        const times: number[] = []
        let count = 0
        for (let run = 0; run < RUNS; run++) {
          const started = performance.now()
          count = chunkAll(data, make()).length
          times.push(performance.now() - started)
        }
        return { value: mbps(SIZE, median(times)), count }
      }
      const fast = rate(() => createChunker())
      const js = rate(() => createChunkerWithScanner({}, createJsGearScanner()))
      return [
        { name: 'FastCDC chunking', value: fast.value, unit: 'MB/s', target: 1500 },
        {
          name: 'FastCDC chunking, JavaScript gear loop (fallback)',
          value: js.value,
          unit: 'MB/s',
        },
        { name: 'FastCDC mean chunk size', value: SIZE / fast.count / 1024, unit: 'KiB' },
      ]
    },
  },
  {
    name: 'chunking hash of chunks (sha256, blake3)',
    async run() {
      return [
        { name: 'SHA-256 chunk ids (node:crypto)', value: await hashRate('sha256'), unit: 'MB/s' },
        { name: 'BLAKE3 chunk ids (hash-wasm)', value: await hashRate('blake3'), unit: 'MB/s' },
      ]
    },
  },
  {
    name: 'chunking pack stage+flush (durable)',
    async run() {
      const randomRuns: number[] = []
      for (let run = 0; run < RUNS; run++) randomRuns.push((await packIngest(randomData())).rate)
      const text = textData(64 * MiB)
      const textRun = await packIngest(text)
      return [
        {
          name: 'pack stage+flush, 256 MiB random',
          value: median(randomRuns),
          unit: 'MB/s',
          note: 'pre-chunked and pre-hashed; 32 stages in flight, one fdatasync + synced batch',
        },
        { name: 'pack stage+flush, 64 MiB text (deflated)', value: textRun.rate, unit: 'MB/s' },
        { name: 'pack stored/raw ratio, text', value: textRun.stored / text.length, unit: 'ratio' },
      ]
    },
  },
]
