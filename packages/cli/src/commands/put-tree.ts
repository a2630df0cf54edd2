import { createReadStream } from 'node:fs'
import type { UploadManyFile } from '@svcdb/client'
import { isClientError } from '@svcdb/client'
import { SingleBar } from 'cli-progress'
import { CliError } from '../cli-error'
import type { CommandContext } from '../command'
import { EXIT_CODES } from '../exit-codes'
import { formatBytes } from '../output/table'
import { assertLocalDirectory, walkLocalTree } from './local-tree'

/** Options of {@link putTree}. */
export interface PutTreeOptions {
  fork?: string
  contentType?: string
}

/** What `svcdb put -r` prints with `--json`. */
export interface PutTreeResult {
  path: string
  /** The version the last commit made; `null` when the directory held no file. */
  version: string | null
  files: number
  bytes: number
  bytes_sent: number
  /** Versions made: one per commit of up to 10,000 files. */
  versions: number
  /** Local entries not uploaded (symlinks, sockets…), relative to the directory. */
  skipped: string[]
}

/** One line on a terminal: files and bytes so far (the total is unknown until the walk ends). */
function treeProgress(label: string, ctx: CommandContext) {
  const stream = ctx.io.stderrStream
  if (ctx.json || stream?.isTTY !== true) return { update() {}, stop() {} }
  const bar = new SingleBar({
    stream,
    format: `${label} {files} files, {bytes} read, {sent} sent, {committed} committed`,
    hideCursor: true,
    clearOnComplete: false,
  })
  bar.start(1, 0, { files: 0, bytes: formatBytes(0), sent: formatBytes(0), committed: 0 })
  return {
    update(p: { files: number; bytesRead: number; bytesSent: number; filesCommitted: number }) {
      bar.update(0, {
        files: p.files,
        bytes: formatBytes(p.bytesRead),
        sent: formatBytes(p.bytesSent),
        committed: p.filesCommitted,
      })
    },
    stop() {
      bar.stop()
    },
  }
}

/** Throws unless `remote` is a directory or absent (it is then created). */
async function assertRemoteDirectory(
  ctx: CommandContext,
  remote: string,
  fork: string | undefined,
): Promise<void> {
  const client = await ctx.client()
  try {
    const entry = await client.files.stat(remote, fork === undefined ? {} : { fork })
    if (entry.entry_type !== 'directory')
      throw new CliError(
        `${remote} is a ${entry.entry_type}: put -r writes into a directory`,
        EXIT_CODES.CONFLICT,
      )
  } catch (err) {
    if (!isClientError(err, 'NOT_FOUND')) throw err
  }
}

/**
 * `svcdb put -r LOCAL_DIR REMOTE_DIR`: every regular file below `localDir` goes to the same
 * relative path below `remoteDir`, only the chunks the server lacks are sent, and the files
 * are committed as one version per 10,000 (`files.uploadMany`).
 */
export async function putTree(
  localDir: string,
  remoteDir: string,
  options: PutTreeOptions,
  ctx: CommandContext,
): Promise<void> {
  await assertLocalDirectory(localDir)
  await assertRemoteDirectory(ctx, remoteDir, options.fork)
  const client = await ctx.client()
  const base = remoteDir.endsWith('/') ? remoteDir.slice(0, -1) : remoteDir
  const skipped: string[] = []
  async function* files(): AsyncGenerator<UploadManyFile> {
    for await (const file of walkLocalTree(localDir, (rel) => skipped.push(rel))) {
      yield {
        path: `${base}/${file.relative}`,
        // Opened when its turn comes: one local file open at a time.
        source: () => createReadStream(file.local),
        ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
      }
    }
  }
  const progress = treeProgress(`put ${localDir}`, ctx)
  let result
  try {
    result = await client.files.uploadMany(files(), {
      ...(options.fork === undefined ? {} : { fork: options.fork }),
      onProgress: (p) => progress.update(p),
    })
  } finally {
    progress.stop()
  }
  const out: PutTreeResult = {
    path: base === '' ? '/' : base,
    version: result.version ?? null,
    files: result.files,
    bytes: result.bytes,
    bytes_sent: result.bytesSent,
    versions: result.commits,
    skipped,
  }
  if (!ctx.json && skipped.length > 0)
    ctx.io.stderr(
      `skipped ${skipped.length} entries that are not regular files: ${skipped.join(', ')}\n`,
    )
  ctx.print(out, () =>
    out.version === null
      ? `nothing to put: ${localDir} holds no files\n`
      : `${out.path}  ${out.files} files  ${formatBytes(out.bytes)} (${formatBytes(out.bytes_sent)} sent)  ${out.versions === 1 ? 'version' : `${out.versions} versions, last`} ${out.version}\n`,
  )
}
