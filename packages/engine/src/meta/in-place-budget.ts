/**
 * Longest stretch of reads done in place before one goes through the thread pool. Under load
 * one turn of the event loop often runs longer than a few milliseconds by itself: with 4 ms,
 * 27 % of the reads of a 4 KiB-PUT load went through the pool, each costing far more than one
 * in place; 16 ms still lets timers and requests in 60 times a second during a long walk.
 */
const BURST_MS = 16

/**
 * Decides when a read may run in place (synchronously). A read in place never lets the event
 * loop turn, so a long walk (a reindex, a listing, an export) made of reads that all hit
 * would hold every other request and timer until it ends. Once reads have run in place for
 * {@link BURST_MS} without the event loop turning, the next one is told to go through the
 * thread pool, whose wait lets everything queued meanwhile run.
 */
export function createInPlaceBudget(): () => boolean {
  let burstStart = -1
  return () => {
    const now = performance.now()
    if (burstStart < 0) {
      burstStart = now
      // Runs once the event loop turns: a new burst may start.
      setImmediate(() => {
        burstStart = -1
      })
      return true
    }
    return now - burstStart < BURST_MS
  }
}
