// Queries over 100,000 JSON documents (DESIGN §9, issue 11: indexed p50 < 5 ms), with and
// without an index, and reindex throughput. The documents are 1,000 distinct JSON files, each
// listed under 100 names in one directory (built with the engine's own prolly builder, as
// writing 100,000 files one by one would take a minute): queries, indexes and reindexes see
// 100,000 documents, and an `eq` on `/n` matches 100 of them.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import type { Benchmark } from '../../../scripts/bench-protocol'
import { Database } from '../src/database'
import { createHasher } from '../src/hashing/create-hasher'
import { createLevelMetaStore } from '../src/meta/level-meta-store'
import { ObjectStore, WriteSet } from '../src/objects/object-store'
import type { DirEntry } from '../src/objects/tree-objects'
import { pageTotals } from '../src/objects/tree-objects'
import { iterateEntries, loadPage } from '../src/tree/prolly/prolly-read'
import { buildDirectory, editDirectory } from '../src/tree/prolly/prolly-write'
import { directoryEntry } from '../src/tree/tree-edit'

const DOCUMENTS = 100_000
const DISTINCT = 1000

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number
}

/** Replaces `/docs` by a directory listing every file of `/seed` many times over. */
async function multiply(path: string): Promise<void> {
  const level = new ClassicLevel(join(path, 'meta'), { keyEncoding: 'view', valueEncoding: 'view' })
  await level.open()
  const meta = createLevelMetaStore(level)
  const objects = new WriteSet(new ObjectStore(meta, await createHasher('sha256'), 256 << 20))
  const head = (await meta.get('ref', 'HEAD')) as Uint8Array
  const rootPage = await loadPage(objects, head)
  const seedDir = (await (async () => {
    for await (const e of iterateEntries(objects, rootPage)) if (e.name === 'seed') return e
    return undefined
  })()) as DirEntry
  const seeds: DirEntry[] = []
  for await (const e of iterateEntries(objects, await loadPage(objects, seedDir.hash)))
    seeds.push(e)
  const entries = Array.from({ length: DOCUMENTS }, (_, i) => ({
    ...(seeds[i % seeds.length] as DirEntry),
    name: `doc-${String(i).padStart(6, '0')}.json`,
  }))
  const hash = buildDirectory(objects, entries)
  const root = await editDirectory(
    objects,
    rootPage,
    new Map([
      [
        'docs',
        directoryEntry('docs', { hash, totals: pageTotals(await loadPage(objects, hash)) }, 1, 1),
      ],
    ]),
  )
  await meta.batch([...objects.ops(), { type: 'put', space: 'ref', key: 'HEAD', value: root }], {
    sync: true,
  })
  await meta.close()
}

async function latencies(
  db: Database,
  runs: number,
  make: (i: number) => Parameters<Database['query']>[0],
) {
  const times: number[] = []
  let plan = ''
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    const result = await db.query(make(i))
    times.push(performance.now() - started)
    plan = result.plan
    if (result.items.length === 0) throw new Error('a benchmark query found nothing')
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), plan }
}

export const benchmarks: Benchmark[] = [
  {
    name: 'queries over 100,000 JSON documents',
    async run() {
      const dir = await mkdtemp(join(tmpdir(), 'svcdb-query-bench-'))
      try {
        let db = await Database.open({ path: dir })
        for (let i = 0; i < DISTINCT; i++)
          await db.writeFile(
            `/seed/${i}.json`,
            JSON.stringify({ n: i, c: `cat${i % 10}`, title: `document ${i}` }),
          )
        await db.close()
        await multiply(dir)
        db = await Database.open({ path: dir })
        await db.writeFile(
          '/docs/.svcdb/indexes.json',
          JSON.stringify({
            glob: '*.json',
            indexes: [
              { field: '/n', type: 'number' },
              { field: '/c', type: 'string' },
            ],
          }),
        )
        const eq = (i: number) => ({
          path: '/docs',
          where: { field: '/n', op: 'eq' as const, value: (i * 7919) % DISTINCT },
          limit: 100,
        })
        const scan = await latencies(db, 5, eq)
        const started = performance.now()
        const reindex = await db.reindex('/docs')
        const reindexSeconds = (performance.now() - started) / 1000
        const indexed = await latencies(db, 300, eq)
        const ordered = await latencies(db, 100, (i) => ({
          path: '/docs',
          where: { field: '/c', op: 'eq' as const, value: `cat${i % 10}` },
          orderBy: { field: '/n', direction: 'desc' as const },
          limit: 50,
        }))
        await db.close()
        if (indexed.plan !== 'index' || scan.plan !== 'scan') throw new Error('unexpected plans')
        return [
          {
            name: 'query p50, indexed eq (100 of 100k)',
            value: indexed.p50,
            unit: 'ms',
            target: 5,
            better: 'lower' as const,
          },
          {
            name: 'query p99, indexed eq (100 of 100k)',
            value: indexed.p99,
            unit: 'ms',
            better: 'lower' as const,
          },
          {
            name: 'query p50, indexed order + filter',
            value: ordered.p50,
            unit: 'ms',
            better: 'lower' as const,
          },
          {
            name: 'query p99, indexed order + filter',
            value: ordered.p99,
            unit: 'ms',
            better: 'lower' as const,
          },
          {
            name: 'query p50, no index (scan of 100k)',
            value: scan.p50,
            unit: 'ms',
            better: 'lower' as const,
          },
          {
            name: 'query p99, no index (scan of 100k)',
            value: scan.p99,
            unit: 'ms',
            better: 'lower' as const,
          },
          {
            name: 'reindex throughput',
            value: reindex.documents / reindexSeconds,
            unit: 'documents/s',
          },
        ]
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  },
]
