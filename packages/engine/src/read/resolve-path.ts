import { EngineError } from '../errors'
import type { ObjectReader } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { joinSegments, pathSegments } from '../path/db-path'
import { loadPage, lookupEntry } from '../tree/prolly/prolly-read'

/** Longest chain of symlinks followed before giving up with `SYMLINK_LOOP`. */
export const MAX_SYMLINK_HOPS = 32

/** Where a path led: the real path and its entry (`undefined` for the root directory). */
export interface Resolved {
  path: string
  entry: DirEntry | undefined
}

/**
 * Resolves a normalised path from a root, following symlinks met on the way, and the last
 * one too when `follow` is set. Targets are absolute (`/x/y`) or relative to the link's
 * directory (`../x`); a target climbing above the root, or naming nothing, is `NOT_FOUND`
 * (dangling); more than 32 hops, which every cycle reaches, is `SYMLINK_LOOP`.
 */
export async function resolvePath(
  objects: ObjectReader,
  root: Uint8Array,
  path: string,
  follow: boolean,
): Promise<Resolved> {
  let segments = pathSegments(path)
  let hops = 0
  let dir = root
  let walked: string[] = []
  let i = 0
  while (i < segments.length) {
    const name = segments[i] as string
    const entry = await lookupEntry(objects, await loadPage(objects, dir), name)
    if (entry === undefined)
      throw new EngineError('NOT_FOUND', `no such file or directory: ${path}`, { path })
    const last = i === segments.length - 1
    if (entry.kind === 'symlink' && (follow || !last)) {
      if (++hops > MAX_SYMLINK_HOPS) {
        throw new EngineError(
          'SYMLINK_LOOP',
          `too many levels of symbolic links resolving ${path}`,
          { path },
        )
      }
      const link = await objects.get(entry.hash)
      if (link.type !== 'link')
        throw new EngineError(
          'CONTENT_CORRUPT',
          `symlink ${joinSegments([...walked, name])} is damaged`,
        )
      segments = [...targetSegments(walked, link.target, path), ...segments.slice(i + 1)]
      dir = root
      walked = []
      i = 0
      continue
    }
    if (last) return { path: joinSegments([...walked, name]), entry }
    if (entry.kind !== 'directory') {
      const at = joinSegments([...walked, name])
      throw new EngineError('NOT_A_DIRECTORY', `${at} is a ${entry.kind}, not a directory`, {
        path: at,
      })
    }
    dir = entry.hash
    walked.push(name)
    i++
  }
  return { path: '/', entry: undefined }
}

function targetSegments(linkDir: readonly string[], target: string, path: string): string[] {
  const out = target.startsWith('/') ? [] : [...linkDir]
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (out.length === 0)
        throw new EngineError(
          'NOT_FOUND',
          `symlink target climbs above the root resolving ${path}`,
          { path },
        )
      out.pop()
    } else {
      out.push(part)
    }
  }
  return out
}
