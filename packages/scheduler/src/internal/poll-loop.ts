import type { Clock } from '../clock'

/** A job run on demand and every `pollMs`, never twice at once. */
export interface PollLoop {
  /** Runs the job now (or once more after the run in progress), then re-arms the timer. */
  wake(): void
  /**
   * Sets the timer for the next timed run, `pollMs` after the last one: wakes never put it
   * off. Does nothing without `pollMs` or while not running.
   */
  arm(): void
  /** Cancels the timer (a run in progress finishes). */
  cancel(): void
}

/** What {@link createPollLoop} needs. */
export interface PollLoopOptions {
  clock: Clock
  /** No timer when undefined: the job runs on `wake` only. */
  pollMs: number | undefined
  /** Whether the loop may run (the runner is started). */
  running(): boolean
  /**
   * The job; `timed` when `pollMs` has passed since the last timed run (or the timer fired),
   * whether this run came from the timer or a wake. Should not throw.
   */
  job(timed: boolean): Promise<void>
}

/**
 * Makes a {@link PollLoop}: wakes that come during a run collapse into one more run, so a
 * burst of change notifications from a shared store costs one look at it.
 */
export function createPollLoop(options: PollLoopOptions): PollLoop {
  const { clock, pollMs } = options
  let cancelTimer: (() => void) | undefined
  let busy = false
  let again = false
  let timed = false
  // When the last timed run began; the first period counts from the first arm.
  let lastTimed: number | undefined

  const cancel = (): void => {
    cancelTimer?.()
    cancelTimer = undefined
  }
  const arm = (): void => {
    cancel()
    if (!options.running() || pollMs === undefined) return
    lastTimed ??= clock.now()
    // Counted from the last timed run, not from now: steady wakes must not starve it.
    const delay = Math.max(0, lastTimed + pollMs - clock.now())
    cancelTimer = clock.setTimer(() => {
      timed = true
      wake()
    }, delay)
  }
  const due = (): boolean =>
    pollMs !== undefined && lastTimed !== undefined && clock.now() - lastTimed >= pollMs
  function wake(): void {
    if (!options.running()) return
    if (busy) {
      again = true
      return
    }
    busy = true
    void (async () => {
      try {
        do {
          again = false
          const wasTimed = timed || due()
          timed = false
          if (wasTimed) lastTimed = clock.now()
          await options.job(wasTimed)
        } while (again && options.running())
      } finally {
        busy = false
        arm()
      }
    })()
  }
  return { wake, arm, cancel }
}
