import type { CancelTimer, Clock } from './clock'

/** A periodic publisher (heartbeat, metrics); stop it on shutdown. */
export interface Pulse {
  /** Stops the pulse; no tick runs afterwards. */
  stop(): void
  readonly running: boolean
}

/**
 * Calls `tick(intentTime)` every `intervalMs` on `clock`, first one interval from now. Each
 * tick is scheduled for an exact multiple of the interval after the start (its intent time),
 * so lateness does not accumulate; ticks missed while the process was busy are skipped rather
 * than fired in a burst.
 */
export function startPulse(
  clock: Clock,
  intervalMs: number,
  tick: (intentTime: number) => void,
): Pulse {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0)
    throw new RangeError(`a pulse interval must be a positive number of ms, got ${intervalMs}`)
  let running = true
  let cancel: CancelTimer | undefined
  let intent = clock.now() + intervalMs

  const schedule = () => {
    const now = clock.now()
    if (intent <= now) intent += Math.ceil((now - intent + 1) / intervalMs) * intervalMs
    cancel = clock.setTimer(fire, intent - now)
  }
  const fire = () => {
    if (!running) return
    const due = intent
    intent += intervalMs
    tick(due)
    if (running) schedule()
  }
  schedule()

  return {
    stop() {
      running = false
      cancel?.()
    },
    get running() {
      return running
    },
  }
}
