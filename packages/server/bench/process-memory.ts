import { readFile } from 'node:fs/promises'

/** Resident memory of a process, in MB (VmRSS of /proc/<pid>/status); NaN when unreadable. */
export async function residentMegabytes(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]
    return kib === undefined ? Number.NaN : Number(kib) / 1024
  } catch {
    return Number.NaN
  }
}
