import { readdir, stat, statfs } from 'node:fs/promises'
import { join } from 'node:path'

/** Disk figures of the stats `sizes` and `health` sections, sampled in the background. */
export interface DiskSample {
  /** Bytes of the whole data directory. */
  diskTotal: number
  /** Bytes of the LevelDB metadata directory. */
  kvFile: number
  /** Used share of the file system holding the data, in percent. */
  diskUsagePercent: number
}

/** Samples a data directory every `intervalMs`; `latest()` never touches the disk. */
export interface DiskSampler {
  latest(): DiskSample
  /** Takes a sample now. */
  refresh(): Promise<DiskSample>
  /** Samples only the file system's used share (one `statfs`, no directory walk), in percent. */
  refreshUsage(): Promise<number>
  stop(): void
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += await directoryBytes(path)
    else if (entry.isFile())
      total += await stat(path).then(
        (s) => s.size,
        () => 0,
      )
  }
  return total
}

/**
 * Stats must answer in constant time (spec), so directory sizes and file-system usage are
 * sampled on a timer, not per request (DESIGN §3.7).
 */
export function createDiskSampler(dataDir: string, intervalMs = 15_000): DiskSampler {
  let sample: DiskSample = { diskTotal: 0, kvFile: 0, diskUsagePercent: 0 }
  const usage = async (): Promise<number> => {
    const fs = await statfs(dataDir).catch(() => undefined)
    const percent =
      fs === undefined || fs.blocks === 0 ? 0 : (100 * (fs.blocks - fs.bavail)) / fs.blocks
    return Math.round(percent * 100) / 100
  }
  const refresh = async (): Promise<DiskSample> => {
    const [diskTotal, kvFile, diskUsagePercent] = await Promise.all([
      directoryBytes(dataDir),
      directoryBytes(join(dataDir, 'meta')),
      usage(),
    ])
    sample = { diskTotal, kvFile, diskUsagePercent }
    return sample
  }
  const refreshUsage = async (): Promise<number> => {
    const diskUsagePercent = await usage()
    sample = { ...sample, diskUsagePercent }
    return diskUsagePercent
  }
  void refresh().catch(() => undefined)
  const timer = setInterval(() => void refresh().catch(() => undefined), intervalMs)
  timer.unref()
  return { latest: () => sample, refresh, refreshUsage, stop: () => clearInterval(timer) }
}
