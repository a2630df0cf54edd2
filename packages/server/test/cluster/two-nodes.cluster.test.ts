import { createHash, randomBytes } from 'node:crypto'
import { chunkStream } from '@svcdb/engine/chunking'
import { decodeSseStream } from '@svcdb/events/sse'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { client, login } from '../kit'
import type { ServerProcess } from '../kit'
import { createClusterStorage, startClusterNode } from './cluster-storage'
import type { ClusterStorage } from './cluster-storage'

type Api = ReturnType<typeof client>

/** A PUT with extra headers (the kit's client sends none). */
const putWith = (url: string, token: string, path: string, body: Uint8Array, headers = {}) =>
  fetch(`${url}/files${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, ...headers },
    body: body as Uint8Array<ArrayBuffer>,
  })

const text = (value: string) => new TextEncoder().encode(value)

/**
 * Two server processes on one PostgreSQL database and one S3 prefix, as two nodes behind a
 * load balancer would run: what one acknowledges the other serves, conditional writes racing
 * on both have one winner, and events of either node reach streams on both in commit order.
 */
describe('two nodes sharing one database', () => {
  let storage: ClusterStorage
  let a: ServerProcess
  let b: ServerProcess
  let rootKey: string
  let tokenA: string
  let tokenB: string
  let apiA: Api
  let apiB: Api
  const started: ServerProcess[] = []
  const start = async (nodeId: number) => {
    const server = await startClusterNode(storage, nodeId)
    started.push(server)
    return server
  }

  beforeAll(async () => {
    storage = await createClusterStorage()
    a = await start(1)
    b = await start(2)
    rootKey = a.rootApiKey as string
    tokenA = (await login(a.url, rootKey)).token
    tokenB = (await login(b.url, rootKey)).token
    apiA = client(a.url, tokenA)
    apiB = client(b.url, tokenB)
  })
  afterAll(async () => {
    for (const server of started) await server.dispose()
    await storage?.dispose()
  })

  it('mints one root key, which both nodes accept', () => {
    expect(rootKey).toMatch(/^svc_/)
    expect(b.rootApiKey).toBeUndefined()
  })

  it('serves on B what A acknowledged, small and large, and the other way round', async () => {
    const big = randomBytes(2 * 1024 * 1024 + 5)
    expect((await apiA.put('/files/x/big.bin', big)).status).toBe(201)
    expect((await apiA.put('/files/x/small.txt', text('from a'))).status).toBe(201)
    const read = await apiB.get('/files/x/big.bin')
    expect(read.status).toBe(200)
    expect(Buffer.from(await read.arrayBuffer()).equals(big)).toBe(true)
    expect(await (await apiB.get('/files/x/small.txt')).text()).toBe('from a')
    expect((await apiB.put('/files/x/small.txt', text('from b'))).status).toBe(200)
    expect(await (await apiA.get('/files/x/small.txt')).text()).toBe('from b')
    const listing = (await (await apiA.get('/files/x/')).json()) as { items: { name: string }[] }
    expect(listing.items.map((item) => item.name).sort()).toEqual(['big.bin', 'small.txt'])
  })

  it('lets exactly one of two racing create-only writes win, and one of two If-Match writes', async () => {
    for (let round = 0; round < 5; round++) {
      const path = `/race/new-${round}.txt`
      const answers = await Promise.all([
        putWith(a.url, tokenA, path, text('a'), { 'if-none-match': '*' }),
        putWith(b.url, tokenB, path, text('b'), { 'if-none-match': '*' }),
      ])
      expect(answers.map((r) => r.status).sort()).toEqual([201, 412])
      const winner = answers[0]?.status === 201 ? 'a' : 'b'
      expect(await (await apiA.get(`/files${path}`)).text()).toBe(winner)
      expect(await (await apiB.get(`/files${path}`)).text()).toBe(winner)
    }
    const created = (await (await apiA.put('/files/race/shared.txt', text('v0'))).json()) as {
      hash: string
    }
    const answers = await Promise.all([
      putWith(a.url, tokenA, '/race/shared.txt', text('va'), { 'if-match': `"${created.hash}"` }),
      putWith(b.url, tokenB, '/race/shared.txt', text('vb'), { 'if-match': `"${created.hash}"` }),
    ])
    expect(answers.map((r) => r.status).sort()).toEqual([200, 412])
    const lost = answers.find((r) => r.status === 412) as Response
    expect(((await lost.json()) as { error: { code: string } }).error.code).toBe(
      'PRECONDITION_FAILED',
    )
  })

  it("streams both nodes' changes to a subscriber on B, in commit order", async () => {
    const res = await fetch(`${b.url}/system/events?events=entries_created&path_prefix=/order/`, {
      headers: { authorization: `Bearer ${tokenB}` },
    })
    expect(res.status).toBe(200)
    const events = decodeSseStream(res.body as ReadableStream<Uint8Array>)
    const paths: string[] = []
    // One write at a time, alternating nodes: commit order is the order written.
    for (let i = 0; i < 12; i++) {
      const api = i % 2 === 0 ? apiA : apiB
      expect(
        (await api.put(`/files/order/${String(i).padStart(2, '0')}.txt`, text(`${i}`))).status,
      ).toBe(201)
      paths.push(`/order/${String(i).padStart(2, '0')}.txt`)
    }
    const seen: string[] = []
    while (seen.length < paths.length) {
      const next = (await events.next()).value as { data: string }
      const envelope = JSON.parse(next.data) as { payload: { entries: { path: string }[] } }
      seen.push(...envelope.payload.entries.map((entry) => entry.path))
    }
    await events.return(undefined)
    expect(seen).toEqual(paths)
  })

  it('resumes on B, with Last-Event-ID, a stream begun on A', async () => {
    const open = (url: string, token: string, lastEventId?: string) =>
      fetch(`${url}/system/events?events=entries_created,events_lost&path_prefix=/resume/`, {
        headers: {
          authorization: `Bearer ${token}`,
          ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
        },
      })
    type Envelope = {
      event_id: string
      event_type: string
      payload: { entries?: { path: string }[] }
    }
    const next = async (events: AsyncGenerator<unknown>) =>
      JSON.parse(((await events.next()).value as { data: string }).data) as Envelope
    const first = decodeSseStream((await open(a.url, tokenA)).body as ReadableStream<Uint8Array>)
    expect((await apiA.put('/files/resume/1.txt', text('1'))).status).toBe(201)
    const seen = await next(first)
    expect(seen.payload.entries?.map((e) => e.path)).toEqual(['/resume/1.txt'])
    await first.return(undefined)
    // Missed while disconnected, written through both nodes.
    expect((await apiB.put('/files/resume/2.txt', text('2'))).status).toBe(201)
    expect((await apiA.put('/files/resume/3.txt', text('3'))).status).toBe(201)
    const resumed = decodeSseStream(
      (await open(b.url, tokenB, seen.event_id)).body as ReadableStream<Uint8Array>,
    )
    const after = [await next(resumed), await next(resumed)]
    await resumed.return(undefined)
    expect(after.map((e) => e.event_type)).toEqual(['entries_created', 'entries_created'])
    expect(after.flatMap((e) => e.payload.entries?.map((entry) => entry.path))).toEqual([
      '/resume/2.txt',
      '/resume/3.txt',
    ])
  })

  it('names each node in /system/stats, with counts of the whole database', async () => {
    const statsOf = async (api: Api) =>
      (await (await api.get('/system/stats')).json()) as {
        identity: { node_id: number }
        counts: Record<string, number>
      }
    expect((await apiA.put('/files/stats/one.txt', text('1'))).status).toBe(201)
    const [sa, sb] = await Promise.all([statsOf(apiA), statsOf(apiB)])
    expect(sa.identity.node_id).toBe(1)
    expect(sb.identity.node_id).toBe(2)
    expect(sb.counts).toEqual(sa.counts)
  })

  it('shows a task on both nodes, runs it once, and lets either node cancel one', async () => {
    const config = { glob: '*.json', indexes: [{ field: '/n', type: 'number' }] }
    await apiA.put('/files/idx/.svcdb/indexes.json', text(JSON.stringify(config)))
    await apiA.put('/files/idx/a.json', text('{"n":1}'))
    // The configuration's own reindex (enqueued by one node) first: a later change to it would
    // replace (cancel) a reindex of the same directory enqueued meanwhile.
    await vi.waitFor(
      async () => {
        const { items } = (await (await apiB.get('/system/tasks')).json()) as {
          items: { task_type: string; status: string }[]
        }
        const reindexes = items.filter((task) => task.task_type === 'reindex')
        expect(reindexes).toHaveLength(1)
        expect(reindexes.map((task) => task.status)).toEqual(['completed'])
      },
      { timeout: 20_000, interval: 200 },
    )
    const made = await apiA.post('/system/tasks/reindex', { path: '/idx' })
    expect(made.status).toBe(200)
    const { id } = (await made.json()) as { id: string }
    await vi.waitFor(
      async () => {
        const seen = (await (await apiB.get(`/system/tasks/${id}`)).json()) as { status: string }
        expect(seen.status).toBe('completed')
      },
      { timeout: 20_000, interval: 200 },
    )
    const other = (await (await apiA.post('/system/tasks/reindex', { path: '/idx' })).json()) as {
      id: string
    }
    const cancelled = await apiB.delete(`/system/tasks/${other.id}`)
    expect([200, 409]).toContain(cancelled.status)
    if (cancelled.status === 200) {
      for (const api of [apiA, apiB]) {
        const task = (await (await api.get(`/system/tasks/${other.id}`)).json()) as {
          status: string
        }
        expect(task.status).toBe('cancelled')
      }
    }
  })

  it('spares in GC on A the chunks B uploaded for a commit still to come', async () => {
    const body = randomBytes(300 * 1024)
    const chunks: { hash: string; size: number }[] = []
    for await (const chunk of chunkStream(
      (async function* () {
        yield body
      })(),
    )) {
      const hash = createHash('sha256').update('chunk:').update(chunk).digest('hex')
      const put = await fetch(`${b.url}/uploads/chunks/${hash}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${tokenB}` },
        body: new Uint8Array(chunk),
      })
      expect([200, 201]).toContain(put.status)
      chunks.push({ hash, size: chunk.length })
    }
    expect(chunks.length).toBeGreaterThan(1)
    const gc = await apiA.post('/system/gc')
    expect(gc.status).toBe(200)
    const content = createHash('sha256').update('content:')
    for (const { hash } of chunks) content.update(Buffer.from(hash, 'hex'))
    const committed = await apiB.post('/uploads/commit', {
      path: '/gc/late.bin',
      chunks,
      hash: content.digest('hex'),
    })
    expect(committed.status).toBe(201)
    const read = await apiA.get('/files/gc/late.bin')
    expect(Buffer.from(await read.arrayBuffer()).equals(body)).toBe(true)
  })

  it('warns when a node starts with the id of a live one', async () => {
    const twin = await start(2)
    await vi.waitFor(() =>
      expect(twin.stderr()).toMatch(/node id 2 was alive .*give each node its own --node-id/),
    )
    await twin.stop()
  })

  it('keeps what A acknowledged when A is killed, and B carries on writing', async () => {
    const bodies = Array.from({ length: 6 }, (_, i) => randomBytes(500 + i * 90_000))
    const answers = await Promise.all(bodies.map((body, i) => apiA.put(`/files/k/${i}.bin`, body)))
    expect(answers.map((r) => r.status)).toEqual(bodies.map(() => 201))
    expect(await a.kill('SIGKILL')).toBe('SIGKILL')
    for (const [i, body] of bodies.entries()) {
      const read = await apiB.get(`/files/k/${i}.bin`)
      expect(read.status).toBe(200)
      expect(Buffer.from(await read.arrayBuffer()).equals(body)).toBe(true)
    }
    expect((await apiB.put('/files/k/after.txt', text('b goes on'))).status).toBe(201)
    const c = await start(1)
    expect(c.rootApiKey).toBeUndefined()
    const apiC = client(c.url, (await login(c.url, rootKey)).token)
    expect(await (await apiC.get('/files/k/after.txt')).text()).toBe('b goes on')
  })
})
