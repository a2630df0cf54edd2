import { describe, expect, it } from 'vitest'
import { createPostgresMetaStore } from './postgres-meta-store'
import { checkPostgresOptions, DEFAULT_SCHEMA } from './postgres-meta-store-options'

const url = 'postgres://postgres@127.0.0.1:1/postgres'

async function codeOf(pending: Promise<unknown>): Promise<unknown> {
  return pending.then(
    () => 'resolved',
    (err: { code?: unknown }) => err.code,
  )
}

describe('checkPostgresOptions', () => {
  it('fills in the default schema and pool size', () => {
    expect(checkPostgresOptions({ connectionString: url })).toEqual({
      connectionString: url,
      schema: DEFAULT_SCHEMA,
      poolSize: 10,
      exclusive: false,
      member: false,
    })
  })

  it('refuses a member that is also exclusive, and a member that is not a boolean', () => {
    const invalid = expect.objectContaining({ code: 'INVALID_INPUT' })
    expect(() =>
      checkPostgresOptions({ connectionString: url, exclusive: true, member: true }),
    ).toThrow(invalid)
    expect(() =>
      checkPostgresOptions({ connectionString: url, member: 'yes' as unknown as boolean }),
    ).toThrow(invalid)
    expect(checkPostgresOptions({ connectionString: url, member: true }).member).toBe(true)
  })

  it('accepts a plain lowercase identifier as schema', () => {
    for (const schema of ['svcdb', '_x', 'tenant_42', 'a'.repeat(63)])
      expect(checkPostgresOptions({ connectionString: url, schema }).schema).toBe(schema)
  })

  it('refuses a schema that is not a plain lowercase identifier with INVALID_INPUT', () => {
    for (const schema of [
      '',
      '1abc',
      'Svcdb',
      'a-b',
      'a.b',
      'x"; drop table kv; --',
      'a'.repeat(64),
    ])
      expect(() => checkPostgresOptions({ connectionString: url, schema }), schema).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining('schema'),
        }),
      )
  })

  it('refuses an exclusive that is not a boolean with INVALID_INPUT', () => {
    expect(() =>
      checkPostgresOptions({ connectionString: url, exclusive: 'yes' as never }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('exclusive'),
      }),
    )
  })

  it('refuses an empty connection string and a pool size below one', () => {
    expect(() => checkPostgresOptions({ connectionString: ' ' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    )
    for (const poolSize of [0, -1, 1.5, Number.NaN])
      expect(() => checkPostgresOptions({ connectionString: url, poolSize })).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining('poolSize'),
        }),
      )
  })
})

describe('createPostgresMetaStore', () => {
  it('refuses bad options before connecting', async () => {
    expect(await codeOf(createPostgresMetaStore({ connectionString: url, schema: 'No' }))).toBe(
      'INVALID_INPUT',
    )
  })

  it('reports a server it cannot reach as IO_ERROR, keeping the cause', async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const failure = await createPostgresMetaStore({ connectionString: url }).catch(
      (err: unknown) => err,
    )
    expect(failure).toMatchObject({ code: 'IO_ERROR', message: expect.stringContaining('svcdb') })
    expect((failure as { cause?: unknown }).cause).toBeInstanceOf(Error)
  })

  it('reports an unreachable server as IO_ERROR when exclusive too', async () => {
    const failure = await createPostgresMetaStore({ connectionString: url, exclusive: true }).catch(
      (err: unknown) => err,
    )
    expect(failure).toMatchObject({ code: 'IO_ERROR', message: expect.stringContaining('lock') })
  })
})
