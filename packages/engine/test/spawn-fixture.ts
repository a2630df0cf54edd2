import { spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))

/**
 * Runs a TypeScript fixture of this folder in a child Node process (through tsx), with `env`
 * added to this process's environment.
 */
export function spawnFixture(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): ChildProcessWithoutNullStreams {
  const script = fileURLToPath(new URL(`./fixtures/${name}.ts`, import.meta.url))
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: 'pipe',
  })
}

/** Resolves with the first stdout line matching `pattern`, or rejects if the child exits first. */
export function waitForLine(
  child: ChildProcessWithoutNullStreams,
  pattern: RegExp,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const onData = (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find((l) => pattern.test(l))
      if (line !== undefined) {
        child.stdout.off('data', onData)
        resolve(line)
      }
    }
    child.stdout.on('data', onData)
    child.once('close', () => reject(new Error(`fixture exited early: ${out}\n${err}`)))
  })
}
