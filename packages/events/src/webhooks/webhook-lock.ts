import type { CancelTimer, Clock } from '../clock'

/**
 * The lock service webhook delivery needs when several nodes share one queue (a port): the
 * engine's `Leases` (`createLocalLeases()`, `createPostgresLeases()`) fits it as it is.
 */
export interface WebhookLeases {
  /**
   * Runs `fn` while holding the lock `name`, exclusive across all nodes, or does nothing when
   * another holder has it (never waits). `signal` aborts when the lock is lost while `fn` runs.
   */
  withLock(name: string, fn: (signal: AbortSignal) => Promise<void>): Promise<unknown>
}

/** Options of {@link contendForLock}. */
export interface LockContentionOptions {
  leases: WebhookLeases
  name: string
  clock: Clock
  /** Wait between attempts to take the lock while another node holds it. */
  retryMs: number
  /** Runs while the lock is held; resolves to give it up. `signal` aborts when it is lost. */
  hold: (signal: AbortSignal) => Promise<void>
  onError: (cause: unknown) => void
}

/** A running {@link contendForLock} loop. */
export interface LockContention {
  /** Stops trying; resolves once the loop and any `hold` in progress have ended. */
  stop(): Promise<void>
}

/**
 * Keeps trying to take lock `name`, every `retryMs`, and runs `hold` whenever it has it. A
 * dead holder's lock is freed by the lease service, so another node takes over within
 * `retryMs`. `hold` must end on its own after `stop` (the caller tells it so).
 */
export function contendForLock(options: LockContentionOptions): LockContention {
  const { leases, name, clock, retryMs, hold, onError } = options
  let stopped = false
  let cancelWait: CancelTimer | undefined
  let wake: (() => void) | undefined

  const pause = () =>
    new Promise<void>((resolve) => {
      wake = resolve
      cancelWait = clock.setTimer(resolve, retryMs)
    })

  const loop = async () => {
    while (!stopped) {
      try {
        await leases.withLock(name, hold)
      } catch (cause) {
        onError(cause)
      }
      if (stopped) return
      await pause()
    }
  }
  const running = loop()

  return {
    async stop() {
      stopped = true
      cancelWait?.()
      wake?.()
      await running
    },
  }
}
