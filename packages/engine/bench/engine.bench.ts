import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryLevel } from 'memory-level'
import { Database } from '../src/index'
import { bulkDirectory } from './bulk-directory'

const MiB = 1024 * 1024
const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000)

async function withDiskDb<T>(run: (db: Database) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-bench-'))
  const db = await Database.open({ path: dir })
  try {
    return await run(db)
  } finally {
    await db.close()
    await rm(dir, { recursive: true, force: true })
  }
}

async function* buffers(data: Uint8Array, size = MiB): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size)
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

/** Checks the directory holds the bulk entries (15-byte seed files) plus the 500 probes. */
function expectEntries(bytes: number, entries: number): void {
  const probes = Array.from({ length: 500 }, (_, i) => `p${i}`.length).reduce((a, b) => a + b, 0)
  if (bytes !== entries * 15 + probes) throw new Error(`unexpected directory size ${bytes}`)
}

function p50(samples: number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number
}

export const benchmarks = [
  {
    name: 'engine large-file ingest and read (disk, durable)',
    async run() {
      const data = randomBytes(256 * MiB)
      return withDiskDb(async (db) => {
        const fresh = await time(() => db.writeFile('/big-1', buffers(data)))
        const dup = await time(() => db.writeFile('/big-2', buffers(data)))
        const read = await time(async () => {
          for await (const _ of db.createReadStream(
            '/big-1',
          ) as unknown as AsyncIterable<Uint8Array>)
            void _
        })
        return [
          {
            name: 'ingest 256 MiB, fresh content',
            value: mbps(data.length, fresh),
            unit: 'MB/s',
            target: 500,
          },
          {
            name: 'ingest 256 MiB, duplicate content',
            value: mbps(data.length, dup),
            unit: 'MB/s',
            target: 900,
          },
          { name: 'read 256 MiB (stream)', value: mbps(data.length, read), unit: 'MB/s' },
        ]
      })
    },
  },
  {
    name: 'engine small writes (disk, durable)',
    async run() {
      return withDiskDb(async (db) => {
        const body = () => randomBytes(4096)
        const sequentialN = 1000
        const sequential = await time(async () => {
          for (let i = 0; i < sequentialN; i++) await db.writeFile(`/seq/d${i % 10}/f${i}`, body())
        })
        const concurrentN = 20_000
        let next = 0
        const concurrent = await time(() =>
          Promise.all(
            Array.from({ length: 32 }, async () => {
              while (next < concurrentN) {
                const i = next++
                await db.writeFile(`/conc/d${i % 100}/f${i}`, body())
              }
            }),
          ),
        )
        const readN = 20_000
        let r = 0
        const reads = await time(() =>
          Promise.all(
            Array.from({ length: 32 }, async () => {
              while (r < readN) {
                const i = r++
                await db.readFile(`/conc/d${i % 100}/f${i}`)
              }
            }),
          ),
        )
        return [
          {
            name: '4 KiB writes, sequential (one fsync each)',
            value: sequentialN / (sequential / 1000),
            unit: 'writes/s',
          },
          {
            name: '4 KiB writes, 32 concurrent writers',
            value: concurrentN / (concurrent / 1000),
            unit: 'writes/s',
            target: 12_000,
          },
          {
            name: '4 KiB reads, 32 concurrent readers',
            value: readN / (reads / 1000),
            unit: 'reads/s',
            target: 20_000,
          },
        ]
      })
    },
  },
  {
    name: 'engine write latency in a 1,000,000-entry directory (memory-level)',
    async run() {
      const level = new MemoryLevel()
      const seeded = await Database.open({ level })
      await seeded.writeFile('/seed', 'same small body')
      await seeded.close()
      const build = await time(() => bulkDirectory(level, '/huge', 1_000_000))
      const db = await Database.open({ level })
      try {
        const latency = async (dir: string) => {
          const samples: number[] = []
          for (let i = 0; i < 500; i++)
            samples.push(await time(() => db.writeFile(`${dir}/probe-${i}`, `p${i}`)))
          return p50(samples)
        }
        const empty = await latency('/empty')
        const huge = await latency('/huge')
        expectEntries((await db.stat('/huge')).size, 1_000_000)
        return [
          {
            name: 'bulk build of the directory (engine builder)',
            value: build / 1000,
            unit: 's',
            better: 'lower',
          },
          { name: 'write p50, empty directory', value: empty, unit: 'ms', better: 'lower' },
          {
            name: 'write p50, 1,000,000-entry directory',
            value: huge,
            unit: 'ms',
            better: 'lower',
          },
          {
            name: '1M-entry p50 / empty p50',
            value: huge / empty,
            unit: '×',
            target: 2,
            better: 'lower',
          },
        ]
      } finally {
        await db.close()
      }
    },
  },
]
