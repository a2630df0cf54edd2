import { describe, expect, it } from 'vitest'
import { parseServerArgs } from './parse-server-args'

const META = 'postgres://svcdb@db.internal:5432/svcdb'
const CHUNKS = 's3://svcdb-chunks/prod?endpoint=http://127.0.0.1:7480&region=eu-1'

describe('parseServerArgs: --meta and --chunks', () => {
  it('keeps the database in --data by default', () => {
    expect(parseServerArgs([])).toMatchObject({
      action: 'run',
      config: { storage: { kind: 'embedded' } },
    })
  })

  it('shares metadata in PostgreSQL and chunks in S3', () => {
    expect(parseServerArgs(['--meta', META, '--chunks', CHUNKS])).toMatchObject({
      action: 'run',
      config: { storage: { kind: 'shared', meta: META, chunks: CHUNKS } },
    })
  })

  it('keeps chunks in PostgreSQL when --chunks is left out', () => {
    expect(parseServerArgs(['--meta', 'postgresql://localhost/db'])).toMatchObject({
      action: 'run',
      config: { storage: { kind: 'shared', meta: 'postgresql://localhost/db', chunks: undefined } },
    })
  })

  it('reads SVCDB_META and SVCDB_CHUNKS, and a flag wins over its variable', () => {
    const env = { SVCDB_META: META, SVCDB_CHUNKS: CHUNKS }
    expect(parseServerArgs([], env)).toMatchObject({
      config: { storage: { kind: 'shared', meta: META, chunks: CHUNKS } },
    })
    expect(parseServerArgs(['--chunks', 's3://other'], env)).toMatchObject({
      config: { storage: { chunks: 's3://other' } },
    })
  })

  it('refuses --chunks without --meta, naming why', () => {
    expect(parseServerArgs(['--chunks', CHUNKS])).toEqual({
      action: 'error',
      message: '--chunks needs --meta: the index of the chunks lives in PostgreSQL',
    })
  })

  it.each([
    ['--meta', 'mysql://db/x', 'a PostgreSQL URL'],
    ['--meta', 'postgres://', 'a PostgreSQL URL'],
    ['--meta', '/var/lib/pg', 'a PostgreSQL URL'],
    ['--chunks', 'https://bucket.s3.amazonaws.com', 'an S3 URL'],
    ['--chunks', 's3://', 'an S3 URL'],
  ])('refuses %s %s', (flag, value, expected) => {
    const argv = flag === '--chunks' ? ['--meta', META, flag, value] : [flag, value]
    const args = parseServerArgs(argv)
    expect(args).toMatchObject({ action: 'error' })
    expect((args as { message: string }).message).toContain(`invalid value for ${flag}`)
    expect((args as { message: string }).message).toContain(expected)
  })

  it('never echoes a malformed --meta, which may carry a password', () => {
    const args = parseServerArgs(['--meta', 'postgresql//svcdb:hunter2@db/svcdb'])
    expect(args).toEqual({
      action: 'error',
      message:
        'invalid value for --meta (expected a PostgreSQL URL such as postgres://USER@HOST:PORT/DATABASE)',
    })
  })

  it('names the variable when SVCDB_META is malformed', () => {
    expect(parseServerArgs([], { SVCDB_META: 'nope' })).toMatchObject({
      action: 'error',
      message: expect.stringContaining('SVCDB_META'),
    })
  })
})
