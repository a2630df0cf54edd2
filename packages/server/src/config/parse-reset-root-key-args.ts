import { parseArgs } from 'node:util'
import { parseAuthMode, parsePath } from './flag-values'
import { rawFlag } from './flag-environment'
import type { Environment } from './flag-environment'
import { DEFAULT_SERVER_CONFIG } from './server-config'
import type { AuthMode, StorageConfig } from './server-config'
import { storageFromFlags } from './storage-flags'

/** What `svcdb-server reset-root-key` is asked to do. */
export interface ResetRootKeyConfig {
  /** The data directory, as given to the server. */
  dataDir: string
  /** Where the database lives, as given to the server (`--meta`, `--chunks`). */
  storage: StorageConfig
  /** Where identity lives: `self-contained` or `file`, as given to the server. */
  auth: Exclude<AuthMode, { kind: 'disabled' }>
  /** Also revoke every other key of the root user. */
  revokeOthers: boolean
}

/** What the `reset-root-key` command line asks for. */
export type ResetRootKeyArgs =
  | { action: 'reset-root-key'; config: ResetRootKeyConfig }
  | { action: 'help' }
  /** `message` is one line naming the offending flag. */
  | { action: 'error'; message: string }

/** The lines of the server's usage that document `reset-root-key`. */
export const RESET_ROOT_KEY_USAGE = `Commands:
  reset-root-key [--data DIR | --meta URL [--chunks URL]] [--auth MODE] [--revoke-others]
                           offline recovery of a lost root key: with the server stopped,
                           mints a new root key and prints it (root api key: svc_…);
                           --data, --meta, --chunks and --auth as given to the server;
                           --revoke-others also revokes every other key of root.
                           Nothing else changes.
`

const options = {
  data: { type: 'string' },
  meta: { type: 'string' },
  chunks: { type: 'string' },
  auth: { type: 'string' },
  'revoke-others': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/**
 * Parses the arguments after `reset-root-key`. `--data` and `--auth` fall back to
 * `SVCDB_DATA` and `SVCDB_AUTH` in `env`, as the server's do, so the command finds the
 * directory the server was started on.
 *
 * @example
 * parseResetRootKeyArgs(['--data', '/var/lib/svcdb', '--revoke-others'])
 */
export function parseResetRootKeyArgs(
  argv: readonly string[],
  env: Environment = process.env,
): ResetRootKeyArgs {
  let values: ReturnType<typeof parseArgs<{ options: typeof options }>>['values']
  try {
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values
  } catch (err) {
    const line = (err as Error).message.split('\n')[0] ?? 'invalid arguments'
    return { action: 'error', message: `reset-root-key: ${line}` }
  }
  if (values.help) return { action: 'help' }
  const dataFlag = rawFlag('data', values.data, env)
  const data = parsePath(dataFlag?.raw ?? DEFAULT_SERVER_CONFIG.dataDir)
  if ('expected' in data) {
    const source = dataFlag?.source ?? '--data'
    return { action: 'error', message: `invalid value for ${source} (expected ${data.expected})` }
  }
  const storage = storageFromFlags(
    rawFlag('meta', values.meta, env),
    rawFlag('chunks', values.chunks, env),
  )
  if ('error' in storage) return { action: 'error', message: `reset-root-key: ${storage.error}` }
  const authFlag = rawFlag('auth', values.auth, env)
  const auth =
    authFlag === undefined ? { value: DEFAULT_SERVER_CONFIG.auth } : parseAuthMode(authFlag.raw)
  if ('expected' in auth) {
    const raw = JSON.stringify(authFlag?.raw)
    return {
      action: 'error',
      message: `invalid value for ${authFlag?.source ?? '--auth'}: ${raw} (expected ${auth.expected})`,
    }
  }
  if (auth.value.kind === 'disabled') {
    return {
      action: 'error',
      message: `reset-root-key: ${authFlag?.source ?? '--auth'} disabled has no keys; give the mode the server runs with`,
    }
  }
  return {
    action: 'reset-root-key',
    config: {
      dataDir: data.value,
      storage,
      auth: auth.value,
      revokeOthers: values['revoke-others'] ?? false,
    },
  }
}
