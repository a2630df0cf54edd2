import { SingleBar } from 'cli-progress'
import { formatBytes } from './table'

/** Reports how far a transfer has got. */
export interface Progress {
  update(done: number): void
  stop(): void
}

const silent: Progress = { update() {}, stop() {} }

/**
 * A progress bar on standard error when it is a terminal (and `--json` is off), nothing
 * otherwise, so piped output and scripts stay clean. `total` may be unknown (a stream).
 */
export function createProgress(options: {
  label: string
  total: number | undefined
  enabled: boolean
  stream?: NodeJS.WriteStream
}): Progress {
  const stream = options.stream ?? process.stderr
  if (!options.enabled || stream.isTTY !== true) return silent
  const known = options.total !== undefined && options.total > 0
  const bar = new SingleBar({
    stream,
    format: known
      ? `${options.label} [{bar}] {percentage}% {doneText} / {totalText}`
      : `${options.label} {doneText}`,
    hideCursor: true,
    clearOnComplete: false,
    etaBuffer: 20,
  })
  const total = options.total ?? 0
  bar.start(known ? total : 1, 0, { doneText: formatBytes(0), totalText: formatBytes(total) })
  return {
    update(done) {
      bar.update(known ? done : 0, { doneText: formatBytes(done), totalText: formatBytes(total) })
    },
    stop() {
      bar.stop()
    },
  }
}
