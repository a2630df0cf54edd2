import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { CliError } from '../cli-error'

/** A saved server and credential. */
export interface Profile {
  url: string
  apiKey?: string
}

/** The config file: named profiles and which one is used by default. */
export interface ProfileConfig {
  default?: string
  profiles: Record<string, Profile>
}

/**
 * Where profiles live: `$SVCDB_CONFIG`, else `$XDG_CONFIG_HOME/svcdb/config.json`, else
 * `~/.config/svcdb/config.json`.
 */
export function configPath(env: Record<string, string | undefined>): string {
  if (env.SVCDB_CONFIG !== undefined && env.SVCDB_CONFIG !== '') return env.SVCDB_CONFIG
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config')
  return join(base, 'svcdb', 'config.json')
}

/** Reads the config file; an absent file is an empty config. */
export async function readProfiles(path: string): Promise<ProfileConfig> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} }
    throw err
  }
  try {
    const parsed = JSON.parse(text) as ProfileConfig
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.profiles !== 'object')
      throw new Error('no profiles object')
    return parsed
  } catch (err) {
    throw new CliError(`${path} is not a valid svcdb config file: ${(err as Error).message}`)
  }
}

/**
 * Writes the config file readable by its owner only (it holds API keys), through a temporary
 * file and a rename, so a crash never leaves half a file.
 */
export async function writeProfiles(path: string, config: ProfileConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
  await chmod(temporary, 0o600)
  await rename(temporary, path)
}
