import { ClientError } from '@svcdb/client'
import type { EntryView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { followLink } from './follow-link'

const entry = (path: string, entryType: EntryView['entry_type'], target?: string): EntryView => ({
  path,
  name: path.slice(path.lastIndexOf('/') + 1),
  entry_type: entryType,
  size: 0,
  hash: 'h',
  content_type: null,
  created_at: 0,
  updated_at: 0,
  ...(target === undefined ? {} : { target }),
})

const link = entry('/ln/to', 'symlink', '/ln/target')

describe('followLink', () => {
  it('leads to the directory or the file the link points at', async () => {
    const dir = entry('/ln/target', 'directory')
    expect(await followLink(() => Promise.resolve(dir), link)).toEqual({
      kind: 'directory',
      path: '/ln/target',
    })
    const file = entry('/ln/target', 'file')
    expect(await followLink(() => Promise.resolve(file), link)).toEqual({
      kind: 'file',
      entry: file,
    })
  })

  it('says a missing target is not there, and passes on other failures', async () => {
    const notFound = new ClientError('NOT_FOUND', 'no such file', { status: 404 })
    expect(await followLink(() => Promise.reject(notFound), link)).toEqual({
      kind: 'missing',
      message: 'to points to /ln/target, which is not there.',
    })
    const refused = new ClientError('UNAUTHORIZED', 'signed out', { status: 401 })
    await expect(followLink(() => Promise.reject(refused), link)).rejects.toBe(refused)
  })
})
