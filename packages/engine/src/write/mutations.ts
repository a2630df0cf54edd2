import { entriesChange } from '../changes/database-change'
import type { Mutation, MutationContext } from '../commit/mutation'
import { EngineError } from '../errors'
import { toHex } from '../internal/hex'
import type { DirEntry, FileObject } from '../objects/tree-objects'
import { baseName, isWithin, MAX_PATH_BYTES, pathSegments } from '../path/db-path'
import { emptyDirectory, editAtPath } from '../tree/tree-edit'
import { fileEntry } from './file-object'
import type { Ingested } from './ingest'

/** Options of `writeFile`. */
export interface WriteFileOptions {
  /** Stored with the file; `application/octet-stream` when absent. */
  contentType?: string
  /** User metadata, stored as JSON with the file. */
  metadata?: Record<string, unknown>
  /** Write only if the current content hash equals this (quotes allowed), or `*` for "exists". */
  ifMatch?: string
  /** `*`: write only if nothing exists at the path. */
  ifNoneMatch?: '*'
  signal?: AbortSignal
}

/** What a file write did. */
export interface WriteOutcome {
  path: string
  /** True when the path held no file before. */
  created: boolean
  entry: DirEntry
  file: FileObject
  /** Hex hash of the version this write produced. */
  version: string
}

function notRoot(path: string, action: string): void {
  if (path === '/')
    throw new EngineError('INVALID_PATH', `cannot ${action} the root directory`, { path })
}

/** A write refused because `path` holds an entry of another kind. */
export function conflict(path: string, existing: DirEntry, wanted: string): EngineError {
  return new EngineError('CONFLICT', `${path} is a ${existing.kind}, cannot ${wanted}`, { path })
}

function checkPreconditions(
  path: string,
  current: FileObject | undefined,
  options: WriteFileOptions,
): void {
  if (options.ifNoneMatch === '*' && current !== undefined) {
    throw new EngineError('PRECONDITION_FAILED', `${path} already exists`, { path })
  }
  if (options.ifMatch === undefined) return
  const wanted = options.ifMatch
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase()
  const holds = current !== undefined && (wanted === '*' || wanted === toHex(current.contentHash))
  if (!holds)
    throw new EngineError('PRECONDITION_FAILED', `${path} does not match ${options.ifMatch}`, {
      path,
    })
}

/** Largest user metadata of a file, as JSON text. */
export const MAX_METADATA_BYTES = 64 * 1024
/** Longest content type, in bytes. */
export const MAX_CONTENT_TYPE_BYTES = 255

/** Refuses a content type or metadata that would not be stored (`INVALID_INPUT`). */
export function checkFileFields(path: string, metadata: string, options: WriteFileOptions): void {
  const { contentType } = options
  if (
    contentType !== undefined &&
    (typeof contentType !== 'string' ||
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f\u007f]/.test(contentType) ||
      Buffer.byteLength(contentType) > MAX_CONTENT_TYPE_BYTES)
  ) {
    throw new EngineError('INVALID_INPUT', `invalid content type for ${path}`, { path })
  }
  const plain =
    options.metadata === undefined ||
    (typeof options.metadata === 'object' &&
      options.metadata !== null &&
      !Array.isArray(options.metadata))
  if (!plain || Buffer.byteLength(metadata) > MAX_METADATA_BYTES) {
    throw new EngineError(
      'INVALID_INPUT',
      `file metadata must be a JSON object of at most ${MAX_METADATA_BYTES} bytes`,
      { path },
    )
  }
}

/** A file's stored fields, checked by {@link checkedFileFields}. */
export interface FileFields {
  contentType: string
  /** The user metadata as JSON text; `''` when there is none. */
  metadata: string
}

/**
 * The stored fields of a write to `path`, checked once before any byte is ingested
 * (`INVALID_INPUT`, see {@link checkFileFields}); the mutation takes them as they are.
 */
export function checkedFileFields(path: string, options: WriteFileOptions): FileFields {
  const metadata = options.metadata === undefined ? '' : JSON.stringify(options.metadata)
  checkFileFields(path, metadata, options)
  return { contentType: options.contentType ?? 'application/octet-stream', metadata }
}

/** Writes ingested content at `path`, creating parent directories. */
export function writeFileMutation(
  ref: string,
  path: string,
  content: Ingested,
  fields: FileFields,
  options: Pick<WriteFileOptions, 'ifMatch' | 'ifNoneMatch'>,
): Mutation<WriteOutcome> {
  notRoot(path, 'write a file over')
  return {
    ref,
    speculative: true,
    async apply({ root, objects, now }: MutationContext) {
      let outcome: Omit<WriteOutcome, 'version'> | undefined
      const result = await editAtPath(
        objects,
        root,
        pathSegments(path),
        async (existing) => {
          if (existing !== undefined && existing.kind !== 'file')
            throw conflict(path, existing, 'write a file there')
          const current =
            existing === undefined ? undefined : ((await objects.get(existing.hash)) as FileObject)
          checkPreconditions(path, current, options)
          const { entry, file } = fileEntry(objects, path, content, fields, existing, now)
          outcome = { path, created: existing === undefined, entry, file }
          return entry
        },
        { createParents: true, now },
      )
      const tally = {
        chunks: content.newChunks,
        rawBytes: content.newRawBytes,
        storedBytes: content.newStoredBytes,
      }
      return {
        root: result.hash,
        ops: content.ops,
        tally,
        changes: [
          entriesChange('entries_created', ref, result.hash, now, [{ path, entryType: 'file' }]),
        ],
        result: { ...(outcome as Omit<WriteOutcome, 'version'>), version: toHex(result.hash) },
      }
    },
  }
}

/** Creates a directory and its parents; an existing directory is left as is. */
export function mkdirMutation(ref: string, path: string): Mutation<string> {
  notRoot(path, 'create')
  return {
    ref,
    speculative: true,
    async apply({ root, objects, now }) {
      let created = false
      const result = await editAtPath(
        objects,
        root,
        pathSegments(path),
        (existing) => {
          if (existing?.kind === 'directory') return undefined
          if (existing !== undefined) throw conflict(path, existing, 'create a directory there')
          created = true
          const hash = emptyDirectory(objects)
          return {
            name: baseName(path),
            kind: 'directory',
            hash,
            size: 0,
            createdAt: now,
            updatedAt: now,
            files: 0,
            dirs: 0,
            links: 0,
          }
        },
        { createParents: true, now },
      )
      const changes = created
        ? [
            entriesChange('entries_created', ref, result.hash, now, [
              { path, entryType: 'directory' },
            ]),
          ]
        : []
      return { root: result.hash, changes, result: toHex(result.hash) }
    },
  }
}

/** Deletes a file or symlink, or a directory (non-empty ones only with `recursive`). */
export function deleteMutation(
  ref: string,
  path: string,
  recursive: boolean,
): Mutation<{ entry: DirEntry; version: string }> {
  notRoot(path, 'delete')
  return {
    ref,
    speculative: true,
    async apply({ root, objects, now }) {
      let removed: DirEntry | undefined
      const result = await editAtPath(
        objects,
        root,
        pathSegments(path),
        (existing) => {
          if (existing === undefined)
            throw new EngineError('NOT_FOUND', `no such file or directory: ${path}`, { path })
          const nonEmpty =
            existing.kind === 'directory' && existing.files + existing.dirs + existing.links > 0
          if (nonEmpty && !recursive) {
            throw new EngineError(
              'NOT_EMPTY',
              `directory ${path} is not empty; delete it recursively`,
              { path },
            )
          }
          removed = existing
          return null
        },
        { createParents: false, now },
      )
      const entry = removed as DirEntry
      return {
        root: result.hash,
        changes: [
          entriesChange('entries_deleted', ref, result.hash, now, [
            { path, entryType: entry.kind },
          ]),
        ],
        result: { entry, version: toHex(result.hash) },
      }
    },
  }
}

/**
 * Moves (or with `keepSource`, copies) the entry at `from` to `to`. Only references move:
 * no content is copied. The target must not exist; a directory cannot go inside itself.
 */
export function relocateMutation(
  ref: string,
  from: string,
  to: string,
  keepSource: boolean,
): Mutation<{ entry: DirEntry; version: string }> {
  notRoot(from, keepSource ? 'copy' : 'move')
  notRoot(to, 'replace')
  if (isWithin(to, from)) {
    throw new EngineError(
      'INVALID_PATH',
      `cannot ${keepSource ? 'copy' : 'move'} ${from} into itself (${to})`,
      { path: to },
    )
  }
  return {
    ref,
    speculative: true,
    async apply({ root, objects, now }) {
      let source: DirEntry | undefined
      const take = (existing: DirEntry | undefined) => {
        if (existing === undefined)
          throw new EngineError('NOT_FOUND', `no such file or directory: ${from}`, { path: from })
        source = existing
        return keepSource ? undefined : null
      }
      const afterSource = await editAtPath(objects, root, pathSegments(from), take, {
        createParents: false,
        now,
      })
      const moved = { ...(source as DirEntry), name: baseName(to), updatedAt: now }
      if (keepSource) moved.createdAt = now
      const result = await editAtPath(
        objects,
        afterSource.hash,
        pathSegments(to),
        (existing) => {
          if (existing !== undefined)
            throw new EngineError('CONFLICT', `${to} already exists`, { path: to })
          return moved
        },
        { createParents: true, now },
      )
      const changes = [
        entriesChange('entries_created', ref, result.hash, now, [
          { path: to, entryType: moved.kind },
        ]),
      ]
      if (!keepSource) {
        changes.unshift(
          entriesChange('entries_deleted', ref, result.hash, now, [
            { path: from, entryType: moved.kind },
          ]),
        )
      }
      return { root: result.hash, changes, result: { entry: moved, version: toHex(result.hash) } }
    },
  }
}

/** Creates or replaces a symlink at `path` pointing at `target`. */
export function symlinkMutation(
  ref: string,
  path: string,
  target: string,
): Mutation<{ entry: DirEntry; version: string }> {
  notRoot(path, 'replace')
  if (
    typeof target !== 'string' ||
    target === '' ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(target) ||
    Buffer.byteLength(target) > MAX_PATH_BYTES
  ) {
    throw new EngineError('INVALID_PATH', `invalid symlink target ${JSON.stringify(target)}`, {
      path,
    })
  }
  return {
    ref,
    speculative: true,
    async apply({ root, objects, now }) {
      let created: DirEntry | undefined
      const result = await editAtPath(
        objects,
        root,
        pathSegments(path),
        (existing) => {
          if (existing !== undefined && existing.kind !== 'symlink')
            throw conflict(path, existing, 'create a symlink there')
          const createdAt = existing?.createdAt ?? now
          const hash = objects.put({ type: 'link', target, createdAt, updatedAt: now })
          created = {
            name: baseName(path),
            kind: 'symlink',
            hash,
            size: 0,
            createdAt,
            updatedAt: now,
            files: 0,
            dirs: 0,
            links: 0,
          }
          return created
        },
        { createParents: true, now },
      )
      return {
        root: result.hash,
        changes: [
          entriesChange('entries_created', ref, result.hash, now, [{ path, entryType: 'symlink' }]),
        ],
        result: { entry: created as DirEntry, version: toHex(result.hash) },
      }
    },
  }
}
