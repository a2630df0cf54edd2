import { createHash, randomBytes } from 'node:crypto'
import { createChunker } from '@svcdb/engine/chunking'
import type { CrashJournal, JournalRecord } from './crash-journal'
import { createExclusiveGate } from './exclusive-gate'
import { applyRecord } from './expected-state'
import type { ExpectedState, InFlight, SnapshotState } from './expected-state'
import { sha256Hex } from './read-back'

/** The kinds of operation the load sends, with their relative weights. */
const WEIGHTS = {
  smallPut: 35,
  largePut: 12,
  upload: 18,
  delete: 22,
  snapshot: 6,
  promote: 5,
  gc: 2,
} as const

/** One kind of operation of the load. */
export type OperationKind = keyof typeof WEIGHTS

const KIB = 1024
const MIB = 1024 * KIB
/** Under the 16 KiB inline limit: stored in LevelDB's own batch, not in a pack. */
const SMALL_MAX = 15 * KIB
const LARGE_MIN = 1 * MIB
const LARGE_MAX = 4 * MIB
/** Promotes pick one of the latest snapshots ("a recent HEAD"). */
const PROMOTE_CHOICES = 4

/** Options of {@link startMixedLoad}. */
export interface MixedLoadOptions {
  url: string
  token: string
  journal: CrashJournal
  /** The journal's state; updated in place as operations are acknowledged. */
  state: ExpectedState
  /** Every content sent to each path, acknowledged or not (for telling lost from torn). */
  known: Map<string, Set<string>>
  clients: number
  pathsPerClient: number
  /** Shared by all dedup uploads, so most of their chunks are already stored. */
  dedupBase: Uint8Array
  /** Unique per round, for snapshot names. */
  round: number
  random: () => number
}

/** What one run of the load did. */
export interface LoadResult {
  acknowledged: Record<OperationKind, number>
  /** Operations sent but not answered when the load stopped. */
  inFlight: InFlight[]
  /** Answers that were not 2xx, or failures before the load was stopped: all unexpected. */
  unexpected: string[]
  /** Uploads whose commit found a checked chunk swept by an online GC, and were sent again. */
  uploadsRetried: number
}

/** A running load: `stop()` lets every client finish its current request and return. */
export interface MixedLoad {
  stop(): void
  done: Promise<LoadResult>
}

class Refused extends Error {}

/**
 * Several concurrent clients sending small and multi-MB PUTs, dedup uploads through
 * `/uploads/*`, deletes, snapshots, promotes and GC runs. Each client owns its own paths, so
 * operations on one path never overlap. Snapshots and promotes hold an exclusive gate while
 * every other operation holds it shared: a snapshot then captures exactly the acknowledged
 * state (no write half-way), and a promote replaces it with a snapshot's whole recorded state.
 * That is what makes promotes checkable: after one, the expected state is the snapshot's.
 */
export function startMixedLoad(options: MixedLoadOptions): MixedLoad {
  const { url, journal, state, known, random } = options
  const headers = { authorization: `Bearer ${options.token}` }
  const gate = createExclusiveGate()
  const acknowledged = Object.fromEntries(
    Object.keys(WEIGHTS).map((k) => [k, 0]),
  ) as LoadResult['acknowledged']
  const inFlight = new Set<InFlight>()
  const unexpected: string[] = []
  let stopped = false
  let snapshots = 0
  let uploadsRetried = 0

  const ack = (kind: OperationKind, record?: JournalRecord) => {
    if (record !== undefined) {
      journal.append(record)
      applyRecord(state, record)
    }
    acknowledged[kind]++
  }
  const send = async (method: string, path: string, body?: Uint8Array | object) => {
    const init: RequestInit = { method, headers: { ...headers } }
    if (body instanceof Uint8Array) {
      init.body = body as Uint8Array<ArrayBuffer>
      ;(init.headers as Record<string, string>)['content-type'] = 'application/octet-stream'
    } else if (body !== undefined) {
      init.body = JSON.stringify(body)
      ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
    }
    const res = await fetch(url + path, init)
    const text = await res.text()
    if (res.status < 200 || res.status > 299)
      throw new Refused(`${method} ${path}: ${res.status} ${text}`)
    return text.length === 0 ? {} : (JSON.parse(text) as Record<string, unknown>)
  }
  const remember = (path: string, sha: string) => {
    const set = known.get(path) ?? new Set()
    set.add(sha)
    known.set(path, set)
  }
  /** Runs `work` with `op` counted in flight until it settles; false once the load must end. */
  const attempt = async (op: InFlight, work: () => Promise<void>): Promise<boolean> => {
    inFlight.add(op)
    try {
      await work()
      inFlight.delete(op)
      return true
    } catch (err) {
      if (err instanceof Refused) {
        // A refusal is an answer: nothing was applied.
        inFlight.delete(op)
        unexpected.push(err.message)
        return true
      }
      if (!stopped) unexpected.push(`before the kill: ${(err as Error).message}`)
      return false
    }
  }

  const write = async (path: string, bytes: Uint8Array, kind: 'smallPut' | 'largePut') => {
    const sha = sha256Hex(bytes)
    remember(path, sha)
    return attempt({ kind: 'write', path, sha256: sha }, () =>
      gate.shared(async () => {
        const written = await send('PUT', `/files${path}`, bytes)
        ack(kind, { kind: 'write', path, sha256: sha, size: bytes.length, etag: `${written.hash}` })
      }),
    )
  }
  const upload = async (path: string) => {
    const bytes = new Uint8Array(options.dedupBase)
    bytes.set(randomBytes(64), Math.floor(random() * (bytes.length - 64)))
    const sha = sha256Hex(bytes)
    remember(path, sha)
    const chunker = createChunker()
    const chunks = [...chunker.push(bytes), ...chunker.end()].map((chunk) => ({
      hash: createHash('sha256').update('chunk:').update(chunk).digest('hex'),
      bytes: chunk,
    }))
    const commit = () =>
      send('POST', '/uploads/commit', {
        path,
        chunks: chunks.map((c) => ({ hash: c.hash, size: c.bytes.length })),
      })
    return attempt({ kind: 'write', path, sha256: sha }, () =>
      gate.shared(async () => {
        for (let tries = 1; ; tries++) {
          const { missing } = (await send('POST', '/uploads/check', {
            hashes: chunks.map((c) => c.hash),
          })) as { missing: string[] }
          const wanted = new Set(missing)
          for (const chunk of chunks)
            if (wanted.delete(chunk.hash))
              await send('PUT', `/uploads/chunks/${chunk.hash}`, chunk.bytes)
          try {
            const written = await commit()
            ack('upload', {
              kind: 'write',
              path,
              sha256: sha,
              size: bytes.length,
              etag: `${written.hash}`,
            })
            return
          } catch (err) {
            // An online GC may sweep a chunk that the check found stored (unreferenced) before
            // the commit pins it; the commit then answers 400 and nothing is written. A careful
            // client checks and sends again.
            if (!(err instanceof Refused) || !/are not stored/.test(err.message) || tries === 3)
              throw err
            uploadsRetried++
          }
        }
      }),
    )
  }
  // The victim is chosen inside the gate: a promote may replace the state until then.
  const remove = async (client: number) =>
    gate.shared(async () => {
      const present = [...state.files.keys()].filter((p) => p.startsWith(`/c${client}/`))
      const path = present[Math.floor(random() * present.length)]
      if (path === undefined) return true
      return attempt({ kind: 'delete', path }, async () => {
        await send('DELETE', `/files${path}`)
        ack('delete', { kind: 'delete', path })
      })
    })
  const snapshot = async () => {
    const name = `r${options.round}-s${snapshots++}`
    return attempt({ kind: 'other' }, () =>
      gate.exclusive(async () => {
        const made = await send('POST', '/versions/snapshots', { name })
        ack('snapshot', { kind: 'snapshot', name, version: `${made.version}` })
      }),
    )
  }
  const promote = async () => {
    const names = [...state.snapshots.keys()].slice(-PROMOTE_CHOICES)
    const name = names[Math.floor(random() * names.length)]
    if (name === undefined) return true
    return attempt({ kind: 'promote', name }, () =>
      gate.exclusive(async () => {
        const version = (state.snapshots.get(name) as SnapshotState).version
        const moved = await send('POST', `/versions/promote?hash=${version}`)
        ack('promote', { kind: 'promote', name, head: `${moved.head}` })
      }),
    )
  }
  // One GC at a time: a second concurrent `POST /system/gc` is refused by the engine
  // ("already running"), which the route answers as 500 today rather than 409.
  let gcRunning = false
  const gc = async () => {
    if (gcRunning) return true
    gcRunning = true
    try {
      return await attempt({ kind: 'other' }, () =>
        gate.shared(async () => {
          await send('POST', '/system/gc')
          ack('gc')
        }),
      )
    } finally {
      gcRunning = false
    }
  }

  const pick = (): OperationKind => {
    const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0)
    let roll = random() * total
    for (const [kind, weight] of Object.entries(WEIGHTS)) {
      roll -= weight
      if (roll < 0) return kind as OperationKind
    }
    return 'smallPut'
  }
  const runClient = async (client: number) => {
    const pathOf = (i: number) => `/c${client}/f${i}.bin`
    while (!stopped) {
      const path = pathOf(Math.floor(random() * options.pathsPerClient))
      const size = (min: number, max: number) => min + Math.floor(random() * (max - min))
      let going: boolean
      switch (pick()) {
        case 'smallPut':
          going = await write(path, randomBytes(size(1, SMALL_MAX)), 'smallPut')
          break
        case 'largePut':
          going = await write(path, randomBytes(size(LARGE_MIN, LARGE_MAX)), 'largePut')
          break
        case 'upload':
          going = await upload(path)
          break
        case 'delete':
          going = await remove(client)
          break
        case 'snapshot':
          going = await snapshot()
          break
        case 'promote':
          going = await promote()
          break
        case 'gc':
          going = await gc()
          break
      }
      if (!going) return
    }
  }

  const done = Promise.all(Array.from({ length: options.clients }, (_, i) => runClient(i))).then(
    (): LoadResult => ({ acknowledged, inFlight: [...inFlight], unexpected, uploadsRetried }),
  )
  return {
    stop() {
      stopped = true
    },
    done,
  }
}
