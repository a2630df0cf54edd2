import type { MetaStore } from '@svcdb/engine'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createPostgresMetaStore } from './postgres-meta-store'
import { adminClient, databaseUrl, namedUrl, testSchemas, unique } from './test-schema'

const utf8 = (text: string) => new TextEncoder().encode(text)
const put = (key: string, value = 'v') => [
  { type: 'put' as const, space: 'ref' as const, key, value: utf8(value) },
]

describe('createPostgresMetaStore with exclusive: true', () => {
  const stores: MetaStore[] = []
  const admin = adminClient()
  const newSchema = testSchemas('svcdb_lock')
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close()
  })

  const open = async (schema: string, exclusive: boolean, connectionString = databaseUrl()) => {
    const store = await createPostgresMetaStore({ connectionString, schema, exclusive })
    stores.push(store)
    return store
  }
  const connectionsNamed = async (name: string) => {
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [name],
    )
    return rows[0]?.n
  }
  /** The backend holding the schema's lock, found as an operator would, in `pg_locks`. */
  const lockHolder = async (schema: string) => {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
         AND classid::text::bigint = hashtext('svcdb:' || $1)::bigint & 4294967295
         AND objid::text::bigint = hashtext($1)::bigint & 4294967295`,
      [schema],
    )
    return rows.map((row) => row.pid)
  }

  it('refuses a second exclusive store on the schema with LOCKED, leaving no connection', async () => {
    const schema = newSchema()
    const first = await open(schema, true)
    const name = unique('svcdb_second')
    const failure = await createPostgresMetaStore({
      connectionString: namedUrl(name),
      schema,
      exclusive: true,
    }).catch((err: unknown) => err)
    expect(failure).toMatchObject({
      code: 'LOCKED',
      message: expect.stringContaining(`schema "${schema}" is open in another svcdb process`),
    })
    // A backend leaves pg_stat_activity a moment after its client has gone.
    await vi.waitFor(async () => expect(await connectionsNamed(name)).toBe(0))
    expect(await lockHolder(schema)).toHaveLength(1)
    await first.batch(put('still'), { sync: true })
    expect(await first.get('ref', 'still')).toEqual(utf8('v'))
  })

  it('opens again once the holder has closed, and keeps the data', async () => {
    const schema = newSchema()
    const first = await open(schema, true)
    await first.batch(put('kept'), { sync: true })
    await first.close()
    expect(await lockHolder(schema)).toEqual([])
    const second = await open(schema, true)
    expect(await second.get('ref', 'kept')).toEqual(utf8('v'))
    await second.batch(put('more'), { sync: false })
    expect(await lockHolder(schema)).toHaveLength(1)
  })

  it('leaves stores that are not exclusive alone', async () => {
    const schema = newSchema()
    const plain = await open(schema, false)
    const exclusive = await open(schema, true)
    const other = await open(schema, false)
    await plain.batch(put('a'), { sync: true })
    await other.batch(put('b'), { sync: false })
    await exclusive.batch(put('c'), { sync: true })
    expect(await exclusive.getMany('ref', ['a', 'b', 'c'])).toEqual([
      utf8('v'),
      utf8('v'),
      utf8('v'),
    ])
  })

  it('locks two schemas independently', async () => {
    const [one, two] = [newSchema(), newSchema()]
    const a = await open(one, true)
    const b = await open(two, true)
    await a.batch(put('x'), { sync: true })
    await b.batch(put('y'), { sync: true })
    await expect(open(one, true)).rejects.toMatchObject({ code: 'LOCKED' })
    await expect(open(two, true)).rejects.toMatchObject({ code: 'LOCKED' })
    const [holderOne, holderTwo] = [await lockHolder(one), await lockHolder(two)]
    expect(holderOne).toHaveLength(1)
    expect(holderTwo).toHaveLength(1)
    expect(holderOne).not.toEqual(holderTwo)
  })

  it('fails every batch with LOCKED once its lock’s backend is killed; reads go on', async () => {
    const schema = newSchema()
    const store = await open(schema, true)
    await store.batch(put('before'), { sync: true })
    const [pid] = await lockHolder(schema)
    expect(pid).toBeTypeOf('number')
    const { rows } = await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [
      pid,
    ])
    expect(rows[0]?.ok).toBe(true)

    // The store learns of the loss when the connection's end reaches it: wait for that, then
    // it must stay refused.
    await vi.waitFor(async () =>
      expect(
        await store.batch(put('racing'), { sync: true }).catch((err: unknown) => err),
      ).toMatchObject({
        code: 'LOCKED',
      }),
    )
    for (const sync of [true, false])
      await expect(store.batch(put('after'), { sync })).rejects.toMatchObject({
        code: 'LOCKED',
        message: expect.stringContaining(`lock on PostgreSQL schema "${schema}" was lost`),
      })
    expect(await store.get('ref', 'before')).toEqual(utf8('v'))
    expect(await store.get('ref', 'after')).toBeUndefined()

    // The lock is free for another process, and the old store does not take it back.
    expect(await lockHolder(schema)).toEqual([])
    const next = await open(schema, true)
    await next.batch(put('next'), { sync: true })
    await expect(store.batch(put('after'), { sync: true })).rejects.toMatchObject({
      code: 'LOCKED',
    })
    expect(await next.get('ref', 'after')).toBeUndefined()
  })
})

describe('createPostgresMetaStore with member: true', () => {
  const stores: MetaStore[] = []
  const newSchema = testSchemas('svcdb_member')
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close()
  })
  const open = async (schema: string, options: { exclusive?: boolean; member?: boolean }) => {
    const store = await createPostgresMetaStore({
      connectionString: databaseUrl(),
      schema,
      ...options,
    })
    stores.push(store)
    return store
  }

  it('lets members share the schema, and keeps exclusive openers out while any is open', async () => {
    const schema = newSchema()
    const a = await open(schema, { member: true })
    const b = await open(schema, { member: true })
    await a.batch(put('a'), { sync: true })
    await b.batch(put('b'), { sync: true })
    expect(await a.get('ref', 'b')).toEqual(utf8('v'))
    const refused = await createPostgresMetaStore({
      connectionString: databaseUrl(),
      schema,
      exclusive: true,
    }).catch((err: unknown) => err)
    expect(refused).toMatchObject({ code: 'LOCKED' })
    await a.close()
    stores.splice(stores.indexOf(a), 1)
    await expect(
      createPostgresMetaStore({ connectionString: databaseUrl(), schema, exclusive: true }),
    ).rejects.toMatchObject({ code: 'LOCKED' })
    await b.close()
    stores.splice(stores.indexOf(b), 1)
    const alone = await open(schema, { exclusive: true })
    expect(await alone.get('ref', 'a')).toEqual(utf8('v'))
  })

  it('refuses a member while an exclusive store holds the schema', async () => {
    const schema = newSchema()
    await open(schema, { exclusive: true })
    const refused = await createPostgresMetaStore({
      connectionString: databaseUrl(),
      schema,
      member: true,
    }).catch((err: unknown) => err)
    expect(refused).toMatchObject({
      code: 'LOCKED',
      message: expect.stringContaining('excludes others'),
    })
  })

  it('refuses exclusive and member together with INVALID_INPUT', async () => {
    await expect(
      createPostgresMetaStore({
        connectionString: databaseUrl(),
        exclusive: true,
        member: true,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })
})
