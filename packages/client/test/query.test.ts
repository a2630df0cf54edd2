import { afterAll, beforeAll, expect, it } from 'vitest'
import { createClient, isClientError } from '../src'
import type { Client } from '../src'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer
let client: Client

beforeAll(async () => {
  server = await startLiveServer()
  client = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

it('queries documents page by page, by scan then by index after a reindex task', async () => {
  await client.files.write(
    '/books/.svcdb/indexes.json',
    JSON.stringify({ glob: '*.json', indexes: [{ field: '/year', type: 'number' }] }),
  )
  for (let i = 0; i < 12; i++)
    await client.files.write(
      `/books/b${String(i).padStart(2, '0')}.json`,
      JSON.stringify({ year: 2000 + (i % 4) }),
    )
  // The configuration write enqueued a reindex. The server tells no one when a task ends (no
  // event, no long poll), so, as any client must, the test asks for its status until it is done.
  const reindexStatus = async () =>
    (await client.tasks.list()).find((t) => t.task_type === 'reindex')?.status
  await expect.poll(reindexStatus, { timeout: 4_000 }).toBe('completed')
  const query = {
    path: '/books',
    where: { field: '/year', op: 'gte' as const, value: 2002 },
    order_by: { field: '/year', direction: 'desc' as const },
    limit: 4,
  }
  const first = await client.files.query(query)
  expect(first.plan).toBe('index')
  expect(first.items).toHaveLength(4)
  expect(first.next).toBeDefined()
  const names: string[] = []
  for await (const item of client.files.queryAll(query)) names.push(item.name)
  // Descending reverses the whole order: ties too, by path.
  expect(names).toEqual(['b11.json', 'b07.json', 'b03.json', 'b10.json', 'b06.json', 'b02.json'])
  const err = await client.files
    .query({ path: '/books', where: { field: '/year', op: 'eq', value: 'x' } })
    .catch((e: unknown) => e)
  expect(isClientError(err, 'BAD_REQUEST')).toBe(true)
})
