import { setFlagsFromString } from 'node:v8'

/**
 * How far V8 lets its old generation grow past what the last full collection kept, in
 * percent. V8 picks the factor by itself; under many small requests it let the heap fill with
 * garbage up to 3× the 40–45 MB that is live. At 150 % the four loads of the side-by-side
 * bench ended at 287–289 MB resident instead of 352–355 MB, with the same CPU per request
 * within the runs' noise. Lower costs CPU: at 50 % (264 MB) a 1 MiB PUT took 30–45 % more,
 * its freed request buffers setting off full collections (docs/performance.md, "V8's
 * headroom").
 */
export const HEAP_GROWING_PERCENT = 150

/**
 * Sets {@link HEAP_GROWING_PERCENT} for this process unless its Node options already set
 * V8's `--heap-growing-percent` (the operator's choice wins). For the server's own process
 * (`svcdb-server`, `svcdb start`), not for applications that embed it: their heap is theirs.
 * V8 reads the setting at each full collection, so setting it after start-up takes effect.
 * Returns whether it was set.
 */
export function limitHeapGrowth(
  options: { execArgv?: readonly string[]; nodeOptions?: string } = {},
): boolean {
  const execArgv = options.execArgv ?? process.execArgv
  const nodeOptions = options.nodeOptions ?? process.env.NODE_OPTIONS ?? ''
  const chosen = [...execArgv, nodeOptions].some((flag) =>
    /--heap[-_]growing[-_]percent/.test(flag),
  )
  if (chosen) return false
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
  return true
}
