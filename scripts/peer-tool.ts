// Finds (or installs with apt) the peer programs the side-by-side benches compare svcdb with.
import { execFile } from 'node:child_process'
import { access, constants } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** A peer program ready to run, or why its rows are skipped. */
export type PeerTool = { path: string } | { skipped: string }

const found = new Map<string, Promise<PeerTool>>()

/**
 * Resolves `binary` on PATH (and in the sbin directories, where Debian puts nginx); when it is
 * missing, installs Debian's `debPackage` with `apt-get install -y --no-install-recommends`
 * (as root, or through sudo). Never throws: a tool that cannot be had comes back as `skipped`
 * with the reason, so the bench prints its other rows.
 */
export function peerTool(binary: string, debPackage: string): Promise<PeerTool> {
  let tool = found.get(binary)
  if (tool === undefined) {
    tool = findOrInstall(binary, debPackage)
    found.set(binary, tool)
  }
  return tool
}

async function findOrInstall(binary: string, debPackage: string): Promise<PeerTool> {
  const present = await which(binary)
  if (present !== undefined) return { path: present }
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n']
  if (asRoot.length > 0 && (await which('sudo')) === undefined)
    return { skipped: `${binary} is not installed, and installing ${debPackage} needs root` }
  if ((await which('apt-get')) === undefined)
    return { skipped: `${binary} is not installed, and there is no apt-get to install it with` }
  process.stderr.write(`  installing ${debPackage} for the side-by-side bench…\n`)
  const apt = async (...args: string[]) => {
    const [command, ...rest] = [...asRoot, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get']
    await run(command as string, [...rest, ...args], { maxBuffer: 64 << 20 })
  }
  try {
    // A fresh machine may have no package lists yet.
    await apt('update', '-q')
    await apt('install', '-y', '-q', '--no-install-recommends', debPackage)
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim().split('\n').slice(-2).join(' ')
    return { skipped: `${binary} could not be installed (apt-get ${debPackage}): ${stderr ?? err}` }
  }
  const installed = await which(binary)
  return installed !== undefined
    ? { path: installed }
    : { skipped: `${debPackage} installed no ${binary} on PATH` }
}

async function which(binary: string): Promise<string | undefined> {
  const dirs = [
    ...(process.env.PATH ?? '').split(delimiter),
    '/usr/local/sbin',
    '/usr/sbin',
    '/sbin',
  ]
  for (const dir of dirs.filter(Boolean)) {
    const candidate = join(dir, binary)
    try {
      await access(candidate, constants.X_OK)
      return candidate
    } catch {
      // not in this directory
    }
  }
  return undefined
}
