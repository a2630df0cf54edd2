import type { UploadManyFile } from '@svcdb/client'
import { childPath } from './resolve-path'

/** The browser files to upload into a directory, as `files.uploadMany` takes them. */
export interface UploadPlan {
  files: UploadManyFile[]
  /** The bytes of them all: what a progress bar counts to. */
  totalBytes: number
}

/**
 * The upload of `files` (from a file input or a drop) into `dir`, each under its own name,
 * with its type as the browser guessed it (`application/octet-stream` when it could not).
 */
export function uploadPlan(dir: string, files: Iterable<File>): UploadPlan {
  const planned: UploadManyFile[] = []
  let totalBytes = 0
  for (const file of files) {
    planned.push({
      path: childPath(dir, file.name),
      source: file,
      contentType: file.type === '' ? 'application/octet-stream' : file.type,
    })
    totalBytes += file.size
  }
  return { files: planned, totalBytes }
}

/** How far along an upload is, 0 to 100, from the bytes the server holds so far. */
export function uploadPercent(bytesDone: number, totalBytes: number): number {
  if (totalBytes <= 0) return 100
  return Math.min(100, Math.floor((bytesDone / totalBytes) * 100))
}
