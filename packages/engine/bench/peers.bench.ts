import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Benchmark, BenchResult } from '../../../scripts/bench-protocol'
import { peerTool } from '../../../scripts/peer-tool'
import type { Corpus } from './corpus'
import { copySourceTree, writeRandomCorpus, writeTextCorpus } from './corpus'
import type { Ingest } from './peer-ingest'
import { ingestGit, ingestRestic, ingestSvcdb, settle } from './peer-ingest'

const MiB = 1024 * 1024
/** `BENCH_SCALE=0.25 pnpm bench peers` runs on a quarter of each corpus. */
const SCALE = Number(process.env.BENCH_SCALE ?? 1) || 1
/** The source tree: `BENCH_SOURCE_TREE`, or the repository's own `node_modules`. */
const SOURCE_TREE =
  process.env.BENCH_SOURCE_TREE ?? fileURLToPath(new URL('../../../node_modules', import.meta.url))

/**
 * Stores one corpus with svcdb's engine (durable; `writeFiles`, then one `writeFile` per file
 * as a second row), git and restic, one after another on the
 * same files, and returns each tool's figures and svcdb ÷ peer ratios.
 */
async function sideBySide(
  label: string,
  make: (dir: string) => Promise<Corpus>,
  concurrency: number,
): Promise<BenchResult[]> {
  const work = await mkdtemp(join(tmpdir(), 'svcdb-bench-peers-'))
  try {
    const corpus = await make(join(work, 'corpus'))
    const restic = await peerTool('restic', 'restic')
    await settle()
    const svcdb = await ingestSvcdb(corpus.dir, join(work, 'svcdb'), concurrency)
    await settle()
    const perFile = await ingestSvcdb(
      corpus.dir,
      join(work, 'svcdb-per-file'),
      concurrency,
      'per-file',
    )
    await settle()
    const git = await ingestGit(corpus.dir, join(work, 'git'))
    await settle()
    const peers: [string, Ingest][] = [['git', git]]
    if ('path' in restic) peers.push(['restic', await ingestRestic(restic.path, corpus.dir, work)])
    const name = (what: string) => `${label}: ${what}`
    const rows: BenchResult[] = [
      {
        name: name('the corpus'),
        value: corpus.bytes / MiB,
        unit: 'MB',
        note: `${corpus.files} files${'skipped' in restic ? `; restic rows skipped: ${restic.skipped}` : ''}`,
      },
      ...speed(name('svcdb'), corpus, svcdb),
      { name: name('svcdb stored'), value: svcdb.stored / MiB, unit: 'MB', better: 'lower' },
      ...speed(name('svcdb, one writeFile per file'), corpus, perFile),
      {
        name: name('svcdb, one writeFile per file, stored'),
        value: perFile.stored / MiB,
        unit: 'MB',
        better: 'lower',
      },
    ]
    for (const [tool, ingest] of peers) {
      rows.push(...speed(name(tool), corpus, ingest), {
        name: name(`${tool} stored`),
        value: ingest.stored / MiB,
        unit: 'MB',
        better: 'lower',
      })
      if (ingest.storedAfterGc !== undefined)
        rows.push({
          name: name(`${tool} stored after gc`),
          value: ingest.storedAfterGc / MiB,
          unit: 'MB',
          better: 'lower',
        })
    }
    for (const [tool, ingest] of peers) {
      rows.push(
        { name: name(`svcdb ÷ ${tool}, speed`), value: ingest.ms / svcdb.ms, unit: '×', target: 1 },
        {
          name: name(`svcdb ÷ ${tool}, stored`),
          value: svcdb.stored / ingest.stored,
          unit: '×',
          target: 1,
          better: 'lower',
        },
      )
      if (ingest.storedAfterGc !== undefined)
        rows.push({
          name: name(`svcdb ÷ ${tool} after gc, stored`),
          value: svcdb.stored / ingest.storedAfterGc,
          unit: '×',
          target: 1,
          better: 'lower',
        })
    }
    return rows
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

function speed(name: string, corpus: Corpus, ingest: Ingest): BenchResult[] {
  const seconds = ingest.ms / 1000
  return [
    { name, value: corpus.files / seconds, unit: 'files/s' },
    { name, value: corpus.bytes / MiB / seconds, unit: 'MB/s' },
  ]
}

export const benchmarks: Benchmark[] = [
  {
    name: 'engine beside git and restic: small text files',
    run: () =>
      sideBySide(
        `${Math.round(20_000 * SCALE).toLocaleString('en-US')} small files (1–16 KiB text)`,
        (dir) => writeTextCorpus(dir, Math.round(20_000 * SCALE)),
        32,
      ),
  },
  {
    name: 'engine beside git and restic: large random files',
    run: () =>
      sideBySide(
        `${Math.round(256 * SCALE)} MiB of random files (1–16 MiB)`,
        (dir) => writeRandomCorpus(dir, Math.round(256 * SCALE * MiB)),
        4,
      ),
  },
  {
    name: 'engine beside git and restic: a real source tree',
    run: () =>
      sideBySide(
        `source tree (${basename(SOURCE_TREE)}, ≤ ${+(150 * SCALE).toFixed(1)} MB)`,
        (dir) => copySourceTree(SOURCE_TREE, dir, Math.round(150 * SCALE * MiB)),
        32,
      ),
  },
]
