import { isClientError } from '@svcdb/client'
import type { Client } from '@svcdb/client'
import * as v from 'valibot'
import type { CollectionLayout } from './collection-layout'
import { SessionsAppError } from './errors'
import { dispatchRecordSchema, sessionSchema } from './session'
import type { DispatchRecord, Session } from './session'
import { upstreamError } from './upstream-error'

/** Options every store call takes. */
export interface StoreCallOptions {
  signal?: AbortSignal
}

/**
 * The sessions collection in svcdb, append-only: files are created with `If-None-Match: *`
 * and never rewritten or deleted, so the key the app runs with needs only create, read and
 * list (`cr--l---`) on the collection.
 */
export interface SessionStore {
  readonly layout: CollectionLayout
  /** Stores a new session; `CONFLICT` when one with its id exists. */
  create(session: Session, options?: StoreCallOptions): Promise<void>
  /** The session, or undefined when there is none with that id. */
  read(id: string, options?: StoreCallOptions): Promise<Session | undefined>
  /** The session's dispatch record, or undefined while it is not dispatched. */
  readDispatch(id: string, options?: StoreCallOptions): Promise<DispatchRecord | undefined>
  /** Appends the dispatch record; false when one exists already (someone else dispatched it). */
  markDispatched(record: DispatchRecord, options?: StoreCallOptions): Promise<boolean>
  /** Ids of the sessions without a dispatch record, in the collection's (name) order. */
  listPending(options?: StoreCallOptions): Promise<string[]>
}

const JSON_TYPE = 'application/json'

/** The store of the collection laid out by `layout`, through an svcdb client. */
export function createSessionStore(client: Client, layout: CollectionLayout): SessionStore {
  const createOnly = async (path: string, value: unknown, options: StoreCallOptions) => {
    try {
      await client.files.write(path, JSON.stringify(value), {
        ifNoneMatch: '*',
        contentType: JSON_TYPE,
        ...options,
      })
      return true
    } catch (err) {
      if (isClientError(err, 'PRECONDITION_FAILED')) return false
      // svcdb checks the update permission before the precondition, so a key without `u`
      // (this app's need not have it) hears 404 for a file that exists.
      if (isClientError(err, 'NOT_FOUND') && (await exists(path, options))) return false
      throw upstreamError(err, `writing ${path}`)
    }
  }

  const exists = async (path: string, options: StoreCallOptions) => {
    try {
      await client.files.stat(path, options)
      return true
    } catch (err) {
      if (isClientError(err, 'NOT_FOUND')) return false
      throw upstreamError(err, `reading ${path}`)
    }
  }

  const readRecord = async <T>(
    path: string,
    schema: v.GenericSchema<unknown, T>,
    options: StoreCallOptions,
  ): Promise<T | undefined> => {
    let text: string
    try {
      text = await client.files.readText(path, options)
    } catch (err) {
      if (isClientError(err, 'NOT_FOUND')) return undefined
      throw upstreamError(err, `reading ${path}`)
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (cause) {
      throw new SessionsAppError('CORRUPT_RECORD', `${path} is not JSON`, { cause })
    }
    const result = v.safeParse(schema, json)
    if (!result.success) {
      const issue = result.issues[0]
      throw new SessionsAppError(
        'CORRUPT_RECORD',
        `${path} is not a valid record: ${v.getDotPath(issue) ?? ''} ${issue.message}`.trim(),
      )
    }
    return result.output
  }

  return {
    layout,
    async create(session, options = {}) {
      if (!(await createOnly(layout.sessionPath(session.id), session, options)))
        throw new SessionsAppError('CONFLICT', `a session with id '${session.id}' exists already`)
    },
    read: (id, options = {}) => readRecord(layout.sessionPath(id), sessionSchema, options),
    readDispatch: (id, options = {}) =>
      readRecord(layout.dispatchedPath(id), dispatchRecordSchema, options),
    markDispatched: (record, options = {}) =>
      createOnly(layout.dispatchedPath(record.session_id), record, options),
    async listPending(options = {}) {
      const sessions: string[] = []
      const dispatched = new Set<string>()
      try {
        for await (const entry of client.files.list(layout.dir, options)) {
          if (entry.entry_type !== 'file') continue
          const file = layout.parse(entry.path)
          if (file?.kind === 'session') sessions.push(file.id)
          else if (file?.kind === 'dispatched') dispatched.add(file.id)
        }
      } catch (err) {
        // No collection yet: nothing was ever submitted.
        if (isClientError(err, 'NOT_FOUND')) return []
        throw upstreamError(err, `listing ${layout.dir}`)
      }
      return sessions.filter((id) => !dispatched.has(id))
    },
  }
}
