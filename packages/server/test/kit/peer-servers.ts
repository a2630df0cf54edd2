import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { forkSchema, peersResponseSchema, statsResponseSchema } from '@svcdb/contract'
import type { ForkView, PeerStatus, StatsResponse } from '@svcdb/contract'
import * as v from 'valibot'
import { client, startServerProcess } from './server-process'
import type { ServerProcess } from './server-process'

/** A peer as another node is told about it: `--peer NAME=URL` and `SVCDB_PEER_<NAME>_KEY`. */
export interface PeerLink {
  name: string
  url: string
  key: string
}

/** Options of {@link startPeerNode}. */
export interface PeerNodeOptions {
  /** The peers this node pulls from. */
  peers?: PeerLink[]
  /** `--peer-interval` (`1s` by default, so interval pulls come quickly too). */
  interval?: string
}

/** The `sync` section of `/system/stats`. */
export type SyncStats = NonNullable<StatsResponse['sync']>

/** A built `svcdb-server` (authenticated default mode) with replication, and calls to read it. */
export interface PeerNode {
  /** The running process (a new one after `restart()`). */
  readonly server: ServerProcess
  readonly url: string
  /** The root API key printed on first start. */
  readonly key: string
  readonly dataDir: string
  /** This node as a peer named `name` of another node. */
  link(name: string): PeerLink
  /** Writes `bytes` at `path` (201), returning HEAD's new version. */
  write(path: string, bytes: Uint8Array): Promise<string>
  /** Deletes `path` (200). */
  remove(path: string): Promise<void>
  /** The bytes at `path`, or undefined on 404. */
  read(path: string): Promise<Uint8Array | undefined>
  /** The `sync` section of `/system/stats` (undefined when absent), checked against the schema. */
  sync(): Promise<SyncStats | undefined>
  /** `GET /system/peers`, checked against the schema. */
  peers(): Promise<PeerStatus[]>
  /** One peer's status. */
  peer(name: string): Promise<PeerStatus>
  /** `GET /versions/forks`. */
  forks(): Promise<ForkView[]>
  /** The first 12 hex digits of HEAD's version (from an export's file name). */
  headPrefix(): Promise<string>
  /** A root request. */
  request(method: string, path: string, body?: unknown): Promise<Response>
  /** SIGKILL: nothing flushed. */
  kill(): Promise<void>
  /** Starts the server again on the same data directory, with the same peers or new ones. */
  restart(options?: PeerNodeOptions): Promise<void>
  /** Stops the server and removes its data directory. */
  dispose(): Promise<void>
}

/** `<length>:<sha256 hex>` of `bytes` (or `absent`): byte equality with a readable failure. */
export function fingerprint(bytes: Uint8Array | undefined): string {
  if (bytes === undefined) return 'absent'
  return `${bytes.length}:${createHash('sha256').update(bytes).digest('hex')}`
}

/** `SVCDB_PEER_<NAME>_KEY` for a peer name. */
export function peerKeyVariable(name: string): string {
  return `SVCDB_PEER_${name.toUpperCase().replaceAll('-', '_')}_KEY`
}

/** The command line and environment that configure `peers`. */
export function peerArguments(
  peers: PeerLink[],
  interval = '1s',
): { args: string[]; env: Record<string, string> } {
  const args = peers.length > 0 ? ['--peer-interval', interval] : []
  const env: Record<string, string> = {}
  for (const peer of peers) {
    args.push('--peer', `${peer.name}=${peer.url}`)
    env[peerKeyVariable(peer.name)] = peer.key
  }
  return { args, env }
}

/**
 * Starts the built server on a fresh data directory in the authenticated default mode,
 * pulling from `options.peers`.
 */
export async function startPeerNode(options: PeerNodeOptions = {}): Promise<PeerNode> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-peer-'))
  let { args, env } = peerArguments(options.peers ?? [], options.interval)
  let server: ServerProcess
  try {
    server = await startServerProcess(args, dataDir, { env })
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  if (server.rootApiKey === undefined) throw new Error('the server printed no root key')
  const key = server.rootApiKey
  const root = () => client(server.url, key)
  const request = async (method: string, path: string, body?: unknown) => {
    const api = root()
    if (method === 'GET') return api.get(path)
    if (method === 'POST') return api.post(path, body)
    if (method === 'PUT') return api.put(path, body)
    if (method === 'DELETE') return api.delete(path)
    return api.patch(path, body)
  }
  const expectStatus = async (res: Response, status: number, what: string) => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`)
    return res
  }
  const peers = async () => {
    const res = await expectStatus(await root().get('/system/peers'), 200, 'peers')
    return v.parse(peersResponseSchema, await res.json()).items
  }
  return {
    get server() {
      return server
    },
    get url() {
      return server.url
    },
    key,
    dataDir,
    link: (name) => ({ name, url: server.url, key }),
    async write(path, bytes) {
      const res = await expectStatus(await root().put(`/files${path}`, bytes), 201, `PUT ${path}`)
      return ((await res.json()) as { version: string }).version
    },
    async remove(path) {
      await expectStatus(await root().delete(`/files${path}`), 200, `DELETE ${path}`)
    },
    async read(path) {
      const res = await root().get(`/files${path}`)
      if (res.status === 404) return undefined
      await expectStatus(res, 200, `GET ${path}`)
      return new Uint8Array(await res.arrayBuffer())
    },
    async sync() {
      const res = await expectStatus(await root().get('/system/stats'), 200, 'stats')
      return v.parse(statsResponseSchema, await res.json()).sync
    },
    peers,
    async peer(name) {
      const found = (await peers()).find((p) => p.name === name)
      if (found === undefined) throw new Error(`no peer ${name} in /system/peers`)
      return found
    },
    async forks() {
      const res = await expectStatus(await root().get('/versions/forks'), 200, 'forks')
      const body = (await res.json()) as { items: unknown[] }
      return body.items.map((item) => v.parse(forkSchema, item))
    },
    async headPrefix() {
      const res = await expectStatus(await root().post('/versions/export'), 200, 'export')
      await res.body?.cancel()
      const name = /export-([0-9a-f]{12})\.svcdb/.exec(res.headers.get('content-disposition') ?? '')
      if (name === null) throw new Error('export named no version')
      return name[1] as string
    },
    request,
    async kill() {
      await server.kill('SIGKILL')
    },
    async restart(next) {
      await server.stop()
      if (next !== undefined) ({ args, env } = peerArguments(next.peers ?? [], next.interval))
      server = await startServerProcess(args, dataDir, { env })
    },
    async dispose() {
      await server.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * Reads `read()` every 20 ms until `holds` accepts a value, returning it; after `timeoutMs`
 * (30 s by default) fails showing the last value read, so a timeout says what was wrong.
 */
export async function pollUntil<T>(
  what: string,
  read: () => Promise<T>,
  holds: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  let failure: unknown
  for (;;) {
    try {
      last = await read()
      failure = undefined
      if (holds(last)) return last
    } catch (error) {
      failure = error
    }
    if (Date.now() > deadline) {
      const seen = (failure === undefined ? JSON.stringify(last) : String(failure)).slice(0, 2000)
      throw new Error(`timed out waiting for ${what}; last seen: ${seen}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** One event of a `/system/events` stream. */
export interface StreamedEvent {
  event_type: string
  payload: Record<string, unknown>
}

/** Events read so far from a node's `/system/events`, until `close()`. */
export interface EventFollower {
  readonly events: StreamedEvent[]
  close(): void
}

/** Opens `GET /system/events?events=<types>` on `node` and collects what arrives. */
export async function followEvents(node: PeerNode, types: string[]): Promise<EventFollower> {
  const abort = new AbortController()
  const res = await fetch(`${node.url}/system/events?events=${types.join(',')}`, {
    headers: { authorization: `Bearer ${node.key}` },
    signal: abort.signal,
  })
  if (res.status !== 200 || res.body === null) throw new Error(`events: ${res.status}`)
  const events: StreamedEvent[] = []
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  void (async () => {
    let buffered = ''
    for (;;) {
      const next = await reader.read().catch(() => ({ done: true as const, value: undefined }))
      if (next.done) return
      buffered += next.value
      let end = buffered.indexOf('\n\n')
      while (end >= 0) {
        const data = /^data: (.*)$/m.exec(buffered.slice(0, end))
        if (data !== null) events.push(JSON.parse(data[1] as string) as StreamedEvent)
        buffered = buffered.slice(end + 2)
        end = buffered.indexOf('\n\n')
      }
    }
  })()
  return { events, close: () => abort.abort() }
}
