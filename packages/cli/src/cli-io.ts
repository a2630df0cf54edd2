import type { Readable, Writable } from 'node:stream'

/** Where the CLI reads and writes; the process's streams in the binary, buffers in tests. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Binary output (`svcdb get … -`, exports to stdout). */
  stdoutStream?: Writable
  /** Input for `-` arguments (`svcdb put - …`, imports from stdin). */
  stdin?: Readable
  /** Where progress bars draw; only a terminal gets one. */
  stderrStream?: NodeJS.WriteStream
}

/** The process's standard streams. */
export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutStream: process.stdout,
  stdin: process.stdin,
  stderrStream: process.stderr,
}
