import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { resolve, sep } from 'node:path'
import type { EntryView } from '@svcdb/contract'
import { SingleBar } from 'cli-progress'
import { CliError } from '../cli-error'
import type { CommandContext } from '../command'
import { EXIT_CODES } from '../exit-codes'
import { formatBytes } from '../output/table'
import { localContentHash } from './local-hash'
import { writeLocal } from './local-files'

/** Options of {@link getTree}: which version to read, and how many files at once. */
export interface GetTreeOptions {
  fork?: string
  snapshot?: string
  version?: string
  /** Files downloaded at the same time (default 4). */
  jobs?: number
}

/** What `svcdb get -r` prints with `--json`. */
export interface GetTreeResult {
  path: string
  directory: string
  /** The version every file was read from (one version, even while HEAD moves). */
  version: string
  files: number
  bytes: number
  /** Files written because they were missing or different locally. */
  downloaded: number
  bytes_downloaded: number
  /** Files left alone because the local copy already has the same size and content hash. */
  identical: number
  /** Remote symlinks not written, relative to the directory. */
  skipped: string[]
}

/** One line on a terminal: files and bytes done of the total. */
function treeProgress(label: string, total: { files: number; bytes: number }, ctx: CommandContext) {
  const stream = ctx.io.stderrStream
  if (ctx.json || stream?.isTTY !== true) return { update() {}, stop() {} }
  const bar = new SingleBar({
    stream,
    format: `${label} [{bar}] {percentage}% {files}/${total.files} files, {bytes} / ${formatBytes(total.bytes)}`,
    hideCursor: true,
    clearOnComplete: false,
  })
  bar.start(Math.max(1, total.bytes), 0, { files: 0, bytes: formatBytes(0) })
  return {
    update(files: number, bytes: number) {
      bar.update(bytes, { files, bytes: formatBytes(bytes) })
    },
    stop() {
      bar.stop()
    },
  }
}

/** The local path of a remote entry below `base`, refusing any name that would leave `dir`. */
function localPath(
  dir: string,
  base: string,
  entry: EntryView,
): { local: string; relative: string } {
  const relative = entry.path.slice(base === '/' ? 1 : base.length + 1)
  const local = resolve(dir, ...relative.split('/'))
  if (relative === '' || !local.startsWith(resolve(dir) + sep))
    throw new CliError(`refusing to write ${entry.path} outside ${dir}`)
  return { local, relative }
}

/** True when `local` is a file with the entry's size and content hash. */
async function identical(local: string, entry: EntryView): Promise<boolean> {
  const info = await stat(local).catch(() => undefined)
  if (info === undefined) return false
  if (!info.isFile())
    throw new CliError(`${local} is in the way: it is not a file`, EXIT_CODES.CONFLICT)
  return info.size === entry.size && (await localContentHash(local)) === entry.hash
}

/** Runs `work` over `items` with at most `jobs` at once; the first failure stops the rest. */
async function pool<T>(items: readonly T[], jobs: number, work: (item: T) => Promise<void>) {
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++] as T
      try {
        await work(item)
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker))
}

/**
 * `svcdb get -r REMOTE_DIR LOCAL_DIR`: every file below `remoteDir` goes to the same relative
 * path below `localDir` (created when absent), as `put -r` does the other way; with or without
 * a trailing `/`, the directory's contents land in `localDir`. Every file is read from one
 * version (HEAD, a fork or a snapshot as it was when the command started); files already
 * identical locally (size and content hash) are not downloaded; each download goes to a
 * temporary name and is renamed into place, so an interrupted run leaves no half file.
 */
export async function getTree(
  remoteDir: string,
  localDir: string,
  options: GetTreeOptions,
  ctx: CommandContext,
): Promise<void> {
  const client = await ctx.client()
  const base = remoteDir.length > 1 && remoteDir.endsWith('/') ? remoteDir.slice(0, -1) : remoteDir
  const selector = {
    ...(options.fork === undefined ? {} : { fork: options.fork }),
    ...(options.snapshot === undefined ? {} : { snapshot: options.snapshot }),
    ...(options.version === undefined ? {} : { version: options.version }),
  }
  // Pin the version: a HEAD that moves meanwhile does not mix two trees in one download.
  const version = options.version ?? (await client.files.stat('/', selector)).hash
  const root = await client.files.stat(base, { version })
  if (root.entry_type !== 'directory')
    throw new CliError(
      `${base} is a ${root.entry_type}: get -r reads a directory (get without -r downloads a file)`,
    )
  const localInfo = await stat(localDir).catch(() => undefined)
  if (localInfo !== undefined && !localInfo.isDirectory())
    throw new CliError(
      `${localDir} is not a directory: get -r writes into one`,
      EXIT_CODES.CONFLICT,
    )

  const files: { entry: EntryView; local: string }[] = []
  const skipped: string[] = []
  const made = new Set<string>()
  const makeDir = async (dir: string) => {
    if (made.has(dir)) return
    await mkdir(dir, { recursive: true })
    made.add(dir)
  }
  await makeDir(resolve(localDir))
  // One directory at a time: a recursive listing leaves symlinks out, and they must be
  // reported as skipped rather than silently missing.
  const pending = [base]
  for (let dir = pending.shift(); dir !== undefined; dir = pending.shift()) {
    for await (const entry of client.files.list(dir, { version, nofollow: true })) {
      const { local, relative } = localPath(localDir, base, entry)
      if (entry.entry_type === 'directory') {
        await makeDir(local)
        pending.push(entry.path)
      } else if (entry.entry_type === 'file') files.push({ entry, local })
      else skipped.push(relative)
    }
  }

  const total = { files: files.length, bytes: files.reduce((n, f) => n + f.entry.size, 0) }
  const progress = treeProgress(`get ${base}`, total, ctx)
  const done = { files: 0, bytes: 0, downloaded: 0, bytesDownloaded: 0, identical: 0 }
  try {
    await pool(files, options.jobs ?? 4, async ({ entry, local }) => {
      if (await identical(local, entry)) {
        done.identical++
        done.bytes += entry.size
      } else {
        const download = await client.files.read(entry.path, { version })
        if (download === undefined) throw new CliError(`${entry.path}: no content answered`)
        const partial = `${local}.svcdb-partial`
        let seen = 0
        try {
          // Workers report their own bytes; the bar shows the sum of all of them.
          await writeLocal(download.body, partial, ctx.io, (n) => {
            done.bytes += n - seen
            seen = n
            progress.update(done.files, done.bytes)
          })
          await rename(partial, local)
        } catch (err) {
          await rm(partial, { force: true })
          throw err
        }
        done.downloaded++
        done.bytesDownloaded += seen
      }
      done.files++
      progress.update(done.files, done.bytes)
    })
  } finally {
    progress.stop()
  }
  const out: GetTreeResult = {
    path: base,
    directory: localDir,
    version,
    files: files.length,
    bytes: total.bytes,
    downloaded: done.downloaded,
    bytes_downloaded: done.bytesDownloaded,
    identical: done.identical,
    skipped,
  }
  if (!ctx.json && skipped.length > 0)
    ctx.io.stderr(`skipped ${skipped.length} symlinks: ${skipped.join(', ')}\n`)
  ctx.print(
    out,
    () =>
      `${localDir}  ${out.files} files  ${formatBytes(out.bytes)} (${out.downloaded} downloaded, ` +
      `${out.identical} already identical)  version ${version}\n`,
  )
}
