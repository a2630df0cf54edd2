import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Benchmark } from '../../../scripts/bench-protocol'
import { Database } from '../src/index'
import type { EngineCore } from '../src/engine-core'
import { buildLargeTree } from '../test/large-tree'

const MiB = 1024 * 1024
const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000)

async function withDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-bench-'))
  try {
    return await run(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function* pieces(data: Uint8Array, size = MiB): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size)
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now()
  const value = await run()
  return { ms: performance.now() - started, value }
}

export const benchmarks: Benchmark[] = [
  {
    name: 'archive export and import of 256 MiB (disk, durable)',
    async run() {
      return withDir(async (dir) => {
        const source = await Database.open({ path: join(dir, 'a') })
        for (let i = 0; i < 4; i++) await source.writeFile(`/f${i}`, pieces(randomBytes(64 * MiB)))
        const parts: Uint8Array[] = []
        const exported = await timed(async () => {
          for await (const part of source.exportArchive()) parts.push(part.slice())
        })
        await source.close()
        const archive = Buffer.concat(parts)
        const target = await Database.open({ path: join(dir, 'b') })
        const imported = await timed(() => target.importArchive(pieces(archive), { promote: true }))
        await target.close()
        return [
          {
            name: 'export 256 MiB (archive to memory)',
            value: mbps(archive.length, exported.ms),
            unit: 'MB/s',
          },
          {
            name: 'import 256 MiB (into an empty database)',
            value: mbps(archive.length, imported.ms),
            unit: 'MB/s',
          },
        ]
      })
    },
  },
  {
    name: 'diff of 10 changes in a 100,000-file tree (disk)',
    async run() {
      return withDir(async (dir) => {
        await buildLargeTree({ path: dir }, 100, 1000)
        const db = await Database.open({ path: dir, cacheBytes: 0 })
        await db.snapshots.create('before')
        for (let i = 0; i < 10; i++)
          await db.writeFile(
            `/dir-${String(i * 9).padStart(3, '0')}/file-${String(i * 97).padStart(4, '0')}`,
            `v${i}`,
          )
        const objects = (db as unknown as { core: EngineCore }).core.objects
        const loads = objects.counters.loads
        let bytes = 0
        const diff = await timed(async () => {
          for await (const part of db.diffArchive({ from: 'before' })) bytes += part.length
        })
        const reads = objects.counters.loads - loads
        await db.close()
        return [
          {
            name: 'diff, 10 changes in 100,000 files',
            value: diff.ms,
            unit: 'ms',
            better: 'lower',
            note: `${reads} object reads, ${bytes} bytes of patch`,
          },
        ]
      })
    },
  },
  {
    name: 'gc of a database with 1,000,000 objects (disk)',
    async run() {
      return withDir(async (dir) => {
        await buildLargeTree({ path: dir }, 1000, 1000)
        const db = await Database.open({ path: dir })
        await db.delete('/dir-000', { recursive: true })
        for (let i = 0; i < 3; i++) await db.writeFile(`/x${i}`, 'x')
        const { value: result, ms } = await timed(() => db.gc())
        await db.close()
        const objects = result.liveEntries + result.garbageEntries
        return [
          {
            name: 'gc time per 1,000,000 objects',
            value: (ms / 1000) * (1_000_000 / objects),
            unit: 's',
            better: 'lower',
            note: `${objects} objects and chunks, ${result.garbageEntries} garbage, ${(ms / 1000).toFixed(1)} s`,
          },
        ]
      })
    },
  },
]
