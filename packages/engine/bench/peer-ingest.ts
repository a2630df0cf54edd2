import { execFile } from 'node:child_process'
import { createReadStream, readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Database } from '../src/index'

const exec = promisify(execFile)
const MiB = 1024 * 1024

/** How long one tool took to store a corpus, and the bytes it then held on disk. */
export interface Ingest {
  ms: number
  stored: number
  /** Git only: the repository after `git gc`. */
  storedAfterGc?: number
}

/** Bytes allocated on disk below `dir` (`du`), which counts each small file's last block. */
export async function diskUsage(dir: string): Promise<number> {
  const { stdout } = await exec('du', ['-s', '--block-size=1', dir])
  return Number(stdout.split('\t')[0])
}

/** Writes back what the previous tool left dirty, so its I/O is not charged to the next. */
export async function settle(): Promise<void> {
  await exec('sync')
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

/** How svcdb is fed: one `writeFiles` call for the whole corpus, or one `writeFile` per file. */
export type SvcdbMode = 'bulk' | 'per-file'

/** Files up to this size are read in one synchronous call when the engine asks for them. */
const READ_IN_PLACE_BYTES = 1 * MiB

/**
 * A file's content, read from disk when the engine asks for it: up to 1 MiB with one
 * `readFileSync` (open, fstat, read, close in place: ≈ 9 µs of CPU for an 8 KiB file against
 * ≈ 22 µs on the event loop plus four thread-pool round trips for `readFile`), up to 4 MiB
 * with one `readFile`, past that in 1 MiB reads.
 */
function content(source: string, size: number): Uint8Array | AsyncIterable<Uint8Array> {
  if (size <= READ_IN_PLACE_BYTES) return readFileSync(source)
  if (size > 4 * MiB) return createReadStream(source, { highWaterMark: MiB })
  return (async function* () {
    yield await readFile(source)
  })()
}

/**
 * svcdb's engine on disk, every file acknowledged durable: lists `corpus`, then either
 * writes it with one `writeFiles` (files read and stored `concurrency` at a time, committed
 * as one version per batch) or with one `writeFile` per file from `concurrency` writers at
 * once. Stored = `du` of the data directory after close.
 */
export async function ingestSvcdb(
  corpus: string,
  data: string,
  concurrency: number,
  mode: SvcdbMode = 'bulk',
): Promise<Ingest> {
  const db = await Database.open({ path: data })
  const ms = await timed(async () => {
    const files = await listFiles(corpus)
    if (mode === 'bulk') {
      // A generator: each file is read when writeFiles takes it, so memory stays bounded.
      const items = function* () {
        for (const { path, size } of files)
          yield { path: `/${path}`, data: content(join(corpus, path), size) }
      }
      await db.writeFiles(items(), { concurrency })
      return
    }
    let next = 0
    const writer = async () => {
      while (next < files.length) {
        const { path, size } = files[next++] as { path: string; size: number }
        await db.writeFile(`/${path}`, content(join(corpus, path), size))
      }
    }
    await Promise.all(Array.from({ length: concurrency }, writer))
  })
  await db.close()
  return { ms, stored: await diskUsage(data) }
}

/** `git add -A && git commit` into a fresh repository (no auto-gc), then `git gc`. */
export async function ingestGit(corpus: string, repo: string): Promise<Ingest> {
  const git = (...args: string[]) =>
    exec(
      'git',
      [
        `--git-dir=${repo}`,
        `--work-tree=${corpus}`,
        '-c',
        'gc.auto=0',
        '-c',
        'user.name=bench',
        '-c',
        'user.email=bench@localhost',
        ...args,
      ],
      { maxBuffer: 64 << 20 },
    )
  await git('init', '-q')
  // -f: node_modules trees carry .gitignore files; every tool must store the same files.
  const ms = await timed(async () => {
    await git('add', '-A', '-f')
    await git('commit', '-q', '-m', 'bench')
  })
  const stored = await diskUsage(repo)
  await git('gc', '-q')
  return { ms, stored, storedAfterGc: await diskUsage(repo) }
}

/** `restic backup` into a fresh local repository (restic's defaults, its cache in `work`). */
export async function ingestRestic(restic: string, corpus: string, work: string): Promise<Ingest> {
  const repo = join(work, 'repo')
  await mkdir(repo)
  const env = {
    ...process.env,
    RESTIC_PASSWORD: 'bench',
    RESTIC_REPOSITORY: repo,
    RESTIC_CACHE_DIR: join(work, 'cache'),
  }
  await exec(restic, ['init', '-q'], { env })
  // Run from inside the corpus, so the snapshot holds the same relative tree as the others.
  const ms = await timed(() =>
    exec(restic, ['backup', '-q', '.'], { env, cwd: corpus, maxBuffer: 64 << 20 }),
  )
  return { ms, stored: await diskUsage(repo) }
}

async function listFiles(dir: string): Promise<{ path: string; size: number }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const full = join(entry.parentPath, entry.name)
        return { path: full.slice(dir.length + 1), size: (await stat(full)).size }
      }),
  )
}
