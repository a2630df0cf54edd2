import { compileGlob } from '../path/compile-glob'
import { RESERVED_NAME } from '../path/db-path'
import type { IndexConfig } from './index-config'

/** Which paths under an indexed directory are its documents. */
export interface DocumentScope {
  /** `relPath` is relative to the directory, without a leading `/`. */
  includes(relPath: string): boolean
  /** True when documents can lie in subdirectories (the glob can match a `/`). */
  readonly nested: boolean
}

/**
 * The documents of a config: files whose relative path matches its glob, outside `.svcdb/`.
 * The glob is compiled once here, not per document; one over the glob limits (possible in a
 * configuration stored before they existed) is `INVALID_INPUT`.
 */
export function documentScope(config: IndexConfig): DocumentScope {
  const glob = config.glob
  const matches = compileGlob(glob, 'the index configuration glob')
  return {
    includes: (relPath) => !relPath.split('/').includes(RESERVED_NAME) && matches(relPath),
    nested: glob.includes('/') || glob.includes('**'),
  }
}

/** `path` relative to `dir` (both absolute), without a leading `/`. */
export function relativeTo(dir: string, path: string): string {
  return dir === '/' ? path.slice(1) : path.slice(dir.length + 1)
}

/** `name` inside the directory at `dir`. */
export function childPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`
}
