import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

// The built binary (the test command builds before testing).
const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url))

/** How a run of the binary to its end went. */
export interface BinaryRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs the built `svcdb-server` with exactly `args` until it exits by itself: a start that
 * fails, or an offline command such as `reset-root-key`; `env` is added to its environment.
 */
export function runServerBinary(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<BinaryRun> {
  const child = spawn(process.execPath, [bin, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
