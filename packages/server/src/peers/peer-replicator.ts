import { isEngineError } from '@svcdb/engine'
import type { Database, Leases } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import type { Logger } from '../logger'
import { createPeerClock } from './peer-clock'
import { describeFailure } from './peer-error'
import { followPeerEvents } from './peer-events'
import { measurePeerLag } from './peer-lag'
import type { PeerEvent } from './peer-events'
import { createPeerHttp } from './peer-http'
import type { PeerStatusBook } from './peer-status-book'
import { pullOnce } from './pull-round'
import type { PullOutcome } from './pull-round'

/** What replicates one peer. */
export interface PeerReplicatorOptions {
  db: Database
  peer: PeerConfig
  /** Pull period while the event stream is down, and the lock retry period. */
  intervalMs: number
  /** One node of a cluster replicates a peer at a time: the holder of `peer-sync:NAME`. */
  leases: Leases
  book: PeerStatusBook
  logger: Logger
  now?: () => number
  fetch?: typeof fetch
}

/** HEAD moves racing a fast-forward retried at once before the attempt counts as failed. */
const MAX_RACES = 3

/** Events that carry no change of the peer's data. */
const QUIET = new Set(['heartbeat', 'metrics'])

/**
 * Replicates one peer until stopped: whichever node holds the peer's lock follows its
 * event stream and pulls within a second of each change, and also every `intervalMs` (the
 * fallback while the stream is down, and what keeps `active_peers` current). Pulls never
 * overlap; one asked for while another runs follows it at once.
 */
export function startPeerReplicator(options: PeerReplicatorOptions): { stop(): Promise<void> } {
  const { peer, book, logger } = options
  const now = options.now ?? Date.now
  const http = createPeerHttp(peer, options.fetch)
  const clock = createPeerClock()
  const stopped = new AbortController()
  let wasFailing = false
  // Entries of change events heard so far (a running total), and the round running now.
  let heard = 0
  let round = 0
  let succeeded = 0

  /**
   * Measures, without holding up the pull, how far the peer is ahead; the answer becomes the
   * lag (plus what events told of since), unless the round already succeeded or a newer one
   * started, whose own measurement is the better one.
   */
  const measure = (cursor: string | undefined, target: string, signal: AbortSignal) => {
    const mine = round
    const heardAtStart = heard
    measurePeerLag(http, {
      cursor,
      target,
      signal,
      ...(peer.scope === undefined ? {} : { scope: peer.scope }),
    })
      .then(async (count) => {
        if (count === undefined || mine !== round || succeeded === mine) return
        // Set at once (no await between the check and it), then saved.
        book.update(peer.name, { lagEntries: count + (heard - heardAtStart) })
        await book.save(peer.name, {})
      })
      .catch(() => undefined)
  }

  const attempt = async (signal: AbortSignal): Promise<void> => {
    const heardAtStart = heard
    const startedAt = now()
    const mine = ++round
    const onBehind = (cursor: string | undefined, target: string) => measure(cursor, target, signal)
    for (let race = 1; ; race++) {
      try {
        const outcome = await pullOnce({ db: options.db, peer, http, clock, now, onBehind }, signal)
        succeeded = mine
        const record = book.get(peer.name)
        const clockReading = clock.reading()
        await book.save(peer.name, {
          state: 'ok',
          lastAttemptAt: startedAt,
          lastSuccessAt: now(),
          // What events told of while the round ran may be newer than what it pulled.
          lagEntries: heard - heardAtStart,
          forksCreated: record.forksCreated + (outcome.kind === 'fork' ? 1 : 0),
          clockOffsetMs: clockReading.offsetMs,
          roundTripMs: clockReading.roundTripMs,
        })
        report(outcome)
        return
      } catch (err) {
        if (signal.aborted) return
        if (isEngineError(err, 'CONFLICT') && race < MAX_RACES) continue
        const failure = describeFailure(err)
        await book
          .save(peer.name, {
            state: 'failing',
            lastAttemptAt: startedAt,
            lastError: { ...failure, at: now() },
          })
          .catch(() => undefined)
        if (!wasFailing)
          logger.warn(`sync with peer ${peer.name} failed: ${failure.message}`, {
            code: failure.code,
          })
        wasFailing = true
        return
      }
    }
  }

  const report = (outcome: PullOutcome) => {
    if (wasFailing) logger.info(`sync with peer ${peer.name} works again`)
    wasFailing = false
    if (outcome.kind === 'fast-forward')
      logger.info(`pulled ${outcome.entries} entries from peer ${peer.name}`, {
        version: outcome.version,
      })
    if ('skipped' in outcome && typeof outcome.skipped === 'number' && outcome.skipped > 0)
      logger.warn(
        `peer ${peer.name} refused ${outcome.skipped} entries to its key: they were not copied`,
      )
    if (outcome.kind === 'fork')
      logger.warn(
        `peer ${peer.name} and this deployment both changed: its version is kept as fork ${outcome.fork}, HEAD is unchanged`,
        { version: outcome.version },
      )
  }

  /** One node's turn at the peer, while it holds the lock. */
  const session = async (lost: AbortSignal): Promise<void> => {
    const signal = AbortSignal.any([lost, stopped.signal])
    let running: Promise<void> | undefined
    let again = false
    const pull = () => {
      if (running !== undefined) {
        again = true
        return
      }
      running = (async () => {
        do {
          again = false
          await attempt(signal)
        } while (again && !signal.aborted)
      })().finally(() => (running = undefined))
    }
    const onEvent = (event: PeerEvent) => {
      if (event.type === 'heartbeat') {
        const built = event.payload.construct_time
        // Replayed beats are refused by the clock: they were built long before they came.
        if (typeof built === 'number') clock.heartbeat(built, event.receivedAt)
        const reading = clock.reading()
        book.update(peer.name, {
          clockOffsetMs: reading.offsetMs,
          roundTripMs: reading.roundTripMs,
        })
        return
      }
      if (QUIET.has(event.type)) return
      const entries = event.payload.entries
      const count = Array.isArray(entries) ? entries.length : 1
      heard += count
      book.update(peer.name, { lagEntries: book.get(peer.name).lagEntries + count })
      pull()
    }
    // Another node may have synced the peer before this one took it over.
    await book.refresh(peer.name).catch(() => undefined)
    const follower = followPeerEvents(http, {
      signal,
      onOpen: (resumed) => {
        clock.streamOpened(resumed)
        book.update(peer.name, { live: true })
        pull()
      },
      onEvent,
      onDrop: () => book.update(peer.name, { live: false }),
    })
    const timer = setInterval(pull, options.intervalMs)
    pull()
    if (!signal.aborted)
      await new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => resolve(), { once: true }),
      )
    clearInterval(timer)
    await follower
    await running
    book.update(peer.name, { live: false })
  }

  const loop = (async () => {
    // What was saved before this start comes first: events and rounds add to it.
    await book.ready().catch((err: unknown) => {
      logger.warn(
        `the saved status of peer ${peer.name} could not be read: ${(err as Error).message}`,
      )
    })
    while (!stopped.signal.aborted) {
      try {
        await options.leases.withLock(`peer-sync:${peer.name}`, session)
      } catch (err) {
        logger.warn(`replication of peer ${peer.name} stopped: ${(err as Error).message}`)
      }
      // Another node holds the peer (or the lock was lost): try again a period later.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.intervalMs)
        stopped.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer)
            resolve()
          },
          { once: true },
        )
      })
    }
  })()

  return {
    async stop() {
      stopped.abort()
      await loop
    },
  }
}
