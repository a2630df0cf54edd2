/** Where the CLI reads and writes; the process's streams in the binary, buffers in tests. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

/** The process's standard output and error. */
export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}
