import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'
import { openCrashJournal } from './crash-journal'
import type { CrashJournal } from './crash-journal'
import { formatCrashFigures, p50Max } from './crash-report'
import { judgeRestart, replayJournal } from './expected-state'
import { startMixedLoad } from './mixed-load'
import { readBackFiles } from './read-back'

// `pnpm test` runs a few short rounds; `SOAK=1` runs many (`SOAK_ROUNDS` to tune).
const SOAK = process.env.SOAK === '1'
const ROUNDS = SOAK ? Number(process.env.SOAK_ROUNDS ?? 50) : 3
const SEED = Number(process.env.SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31))
/** How long the load runs before the kill: a random moment in this window. */
const LOAD_MS = { min: 1_000, max: 3_000 }
const CLIENTS = 4
const PATHS_PER_CLIENT = 8
const DEDUP_BASE_BYTES = 2 * 1024 * 1024

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with `SOAK_SEED`. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Polls health until it answers 200 (the server is up once `listening` is printed). */
async function firstHealthy(url: string): Promise<void> {
  for (;;) {
    const ok = await fetch(`${url}/system/health`).then(
      (res) => res.status === 200,
      () => false,
    )
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

let server: ServerProcess | undefined
let journal: CrashJournal | undefined
const dirs: string[] = []

afterAll(async () => {
  await server?.stop()
  journal?.close()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('kill -9 rounds of the real server under mixed load', () => {
  it(
    'keeps every acknowledged write and delete, tears nothing and resurrects nothing',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-crash-data-'))
      const clientDir = await mkdtemp(join(tmpdir(), 'svcdb-crash-journal-'))
      dirs.push(dataDir, clientDir)
      journal = openCrashJournal(join(clientDir, 'journal.jsonl'))
      const random = seeded(SEED)
      const dedupBase = new Uint8Array(randomBytes(DEDUP_BASE_BYTES))
      const known = new Map<string, Set<string>>()
      server = await startServerProcess([], dataDir)
      const rootApiKey = server.rootApiKey as string
      const restarts: number[] = []
      const byKind: Record<string, number> = {}
      const damage = { lost: [] as string[], torn: [] as string[], resurrected: [] as string[] }
      const unexpected: string[] = []
      let inFlightTotal = 0
      let uploadsRetried = 0

      for (let round = 1; round <= ROUNDS; round++) {
        const state = replayJournal(journal.records())
        const load = startMixedLoad({
          url: server.url,
          token: (await login(server.url, rootApiKey)).token,
          journal,
          state,
          known,
          clients: CLIENTS,
          pathsPerClient: PATHS_PER_CLIENT,
          dedupBase,
          round,
          random,
        })
        const wait = LOAD_MS.min + random() * (LOAD_MS.max - LOAD_MS.min)
        await new Promise((resolve) => setTimeout(resolve, wait))
        load.stop()
        expect(await server.kill('SIGKILL')).toBe('SIGKILL')
        const result = await load.done
        for (const [kind, n] of Object.entries(result.acknowledged))
          byKind[kind] = (byKind[kind] ?? 0) + n
        unexpected.push(...result.unexpected.map((u) => `round ${round}: ${u}`))
        // The server's own account of a refusal (it logs failures on stderr at warn).
        if (result.unexpected.length > 0)
          unexpected.push(`round ${round} stderr: ${server.stderr()}`)
        inFlightTotal += result.inFlight.length
        uploadsRetried += result.uploadsRetried

        const spawned = performance.now()
        server = await startServerProcess([], dataDir)
        await firstHealthy(server.url)
        restarts.push(performance.now() - spawned)

        const token = (await login(server.url, rootApiKey)).token
        const actual = await readBackFiles(server.url, token)
        const verdict = judgeRestart(
          replayJournal(journal.records()),
          result.inFlight,
          actual,
          known,
        )
        for (const kind of ['lost', 'torn', 'resurrected'] as const)
          damage[kind].push(...verdict[kind].map((p) => `round ${round}: ${p}`))
        // Paths whose in-flight operation did or did not land are settled as read back, so
        // the next round starts from an exact expected state.
        for (const record of verdict.settle) journal.append(record)
      }

      const operations = Object.values(byKind).reduce((a, b) => a + b, 0)
      const figures = {
        rounds: ROUNDS,
        operations,
        inFlight: inFlightTotal,
        lost: damage.lost.length,
        torn: damage.torn.length,
        resurrected: damage.resurrected.length,
        uploadsRetried,
        restartToReadyMs: p50Max(restarts),
        byKind,
        seed: SEED,
      }
      process.stdout.write(
        `\nkill -9 rounds (SOAK=${SOAK ? 1 : 0}):\n${formatCrashFigures(figures)}`,
      )
      expect(unexpected).toEqual([])
      expect(damage).toEqual({ lost: [], torn: [], resurrected: [] })
      expect(operations).toBeGreaterThan(0)
    },
    ROUNDS * 30_000,
  )
})
