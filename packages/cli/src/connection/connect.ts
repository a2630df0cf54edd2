import { createClient } from '@svcdb/client'
import type { Client } from '@svcdb/client'
import { CliError } from '../cli-error'
import { EXIT_CODES } from '../exit-codes'
import { configPath, readProfiles } from './profiles'

/** Where the server is when nothing says otherwise (the server's default address). */
export const DEFAULT_URL = 'http://127.0.0.1:6830'

/** Connection flags every server command takes. */
export interface ConnectionFlags {
  url?: string | undefined
  'api-key'?: string | undefined
  profile?: string | undefined
}

/** The server and credential a command uses, and where they came from. */
export interface Connection {
  url: string
  apiKey: string | undefined
  /** `flags`, `env`, `profile <name>` or `default`. */
  source: string
}

/**
 * Resolves the server and API key: flags first, then `SVCDB_URL` / `SVCDB_API_KEY`, then the
 * profile named by `--profile` or `SVCDB_PROFILE` (else the config's default), then the
 * server's default address without a key.
 */
export async function resolveConnection(
  flags: ConnectionFlags,
  env: Record<string, string | undefined>,
): Promise<Connection> {
  const config = await readProfiles(configPath(env))
  const name = flags.profile ?? env.SVCDB_PROFILE ?? config.default
  const profile = name === undefined ? undefined : config.profiles[name]
  if (flags.profile !== undefined && profile === undefined) {
    throw new CliError(
      `no profile named '${flags.profile}'; run \`svcdb login --profile ${flags.profile}\``,
      EXIT_CODES.USAGE,
    )
  }
  const url = flags.url ?? env.SVCDB_URL ?? profile?.url ?? DEFAULT_URL
  const apiKey = flags['api-key'] ?? env.SVCDB_API_KEY ?? profile?.apiKey
  const source =
    flags.url !== undefined || flags['api-key'] !== undefined
      ? 'flags'
      : env.SVCDB_URL !== undefined || env.SVCDB_API_KEY !== undefined
        ? 'env'
        : profile !== undefined
          ? `profile ${name}`
          : 'default'
  return { url, apiKey, source }
}

/**
 * A client for a resolved connection. The API key goes as the bearer credential itself (the
 * server takes `Authorization: Bearer svc_…`): a command exchanges no token, so none of the
 * hundreds of short runs of a script leaves a 30-day refresh token behind.
 */
export function connect(connection: Connection): Client {
  return clientFor(connection.url, connection.apiKey)
}

/** A client of `url` sending `apiKey` (when given) as its bearer credential. */
export function clientFor(url: string, apiKey: string | undefined): Client {
  return createClient(apiKey === undefined ? { baseUrl: url } : { baseUrl: url, token: apiKey })
}
