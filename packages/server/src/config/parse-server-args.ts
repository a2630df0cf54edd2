import { parseArgs } from 'node:util'
import {
  isLoopbackHost,
  parseAllowList,
  parseAuthMode,
  parseDuration,
  parseHost,
  parseLogFormat,
  parseLogLevel,
  parseNodeId,
  parseOrigins,
  parsePath,
  parsePort,
  parseRetention,
} from './flag-values'
import type { FlagValue } from './flag-values'
import { environmentName, rawFlag, switchFlag } from './flag-environment'
import type { Environment } from './flag-environment'
import { parseResetRootKeyArgs, RESET_ROOT_KEY_USAGE } from './parse-reset-root-key-args'
import type { ResetRootKeyArgs } from './parse-reset-root-key-args'
import { DEFAULT_SERVER_CONFIG } from './server-config'
import type { ServerConfig, StorageConfig } from './server-config'
import { peersFromFlags } from './peer-flags'
import type { PeerConfig } from './peer-flags'
import { storageFromFlags } from './storage-flags'

/** What the command line asks for. */
export type ServerArgs =
  | { action: 'run'; config: ServerConfig }
  | { action: 'help' }
  | { action: 'version' }
  /** `message` is one line naming the offending flag. */
  | { action: 'error'; message: string }
  | ResetRootKeyArgs

/** Options whose value may also come from the environment (all but help and version). */
const CONFIGURABLE = [
  'data',
  'meta',
  'chunks',
  'host',
  'port',
  'auth',
  'dev',
  'node-id',
  'metrics-interval',
  'cors',
  'log-level',
  'log-format',
  'webhook-allow',
  'unsafe-public',
  'head-log-retention',
  'console',
  'peer-interval',
] as const

const ENVIRONMENT_LINES = CONFIGURABLE.map(
  (name) => `  ${environmentName(name).padEnd(25)}--${name}`,
).join('\n')

/** Usage text of the server's command line. */
export const SERVER_USAGE = `Usage: svcdb-server [options]
       svcdb-server reset-root-key [--data DIR | --meta URL [--chunks URL]] [--auth MODE] [--revoke-others]

Options:
  --data DIR               data directory (default ./data); with --meta, local scratch only
  --meta URL               keep the database in PostgreSQL instead of --data (one server
                           per database for now): postgres://USER@HOST:PORT/DATABASE
  --chunks URL             with --meta, keep chunk bytes in S3:
                           s3://BUCKET[/prefix]?endpoint=URL&region=R; credentials from
                           AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (default: in PostgreSQL)
  --host HOST              address to listen on (default 127.0.0.1)
  --port PORT              port, 0 for any free port (default 6830)
  --auth MODE              disabled | self-contained | file://PATH (default self-contained)
  --dev                    development mode: magic links are logged, not mailed
  --node-id N              this node's id in stats and heartbeats; unique per node
                           when nodes share --meta (default 0)
  --metrics-interval DUR   interval of metrics events, e.g. 15s (default 15s)
  --cors ORIGINS           comma-separated allowed origins, or *
  --log-level LEVEL        debug | info | warn | error | silent (default info); info logs
                           one line per request
  --log-format FORMAT      json | pretty | auto: pretty on a terminal, else JSON (default auto)
  --webhook-allow LIST     webhook destinations that may be called: comma-separated
                           https://host[:port], https://*.domain, or * (default none)
  --unsafe-public          allow --auth disabled on a non-loopback host
  --head-log-retention P   keep versions that promotes and restores replaced, so they can
                           be undone, for P: 30d, 12h, 90m, or milliseconds (default 30d)
  --no-console             do not serve the web console at /console/ (served by default)
  --peer NAME=URL[#/DIR]   pull every change of another svcdb deployment (repeatable; only
                           DIR with #/DIR); its API key from SVCDB_PEER_<NAME>_KEY. Changes
                           fast-forward HEAD, else land in a fork peer-NAME-<hash>
  --peer-interval DUR      how often peers are pulled when their event stream is down
                           (default 15s)
  -h, --help               show this help
  -v, --version            print the version

Environment:
  Every option above also reads an environment variable; a flag on the command line wins.
  Switches take true or false (also 1/0, yes/no, on/off).
${ENVIRONMENT_LINES}
  SVCDB_PEERS              --peer, as NAME=URL,NAME=URL
  SVCDB_PEER_<NAME>_KEY    the API key of peer NAME (never logged, never stored)

${RESET_ROOT_KEY_USAGE}`

const options = {
  data: { type: 'string' },
  meta: { type: 'string' },
  chunks: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  auth: { type: 'string' },
  dev: { type: 'boolean' },
  'node-id': { type: 'string' },
  'metrics-interval': { type: 'string' },
  cors: { type: 'string' },
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  'unsafe-public': { type: 'boolean' },
  'webhook-allow': { type: 'string' },
  'head-log-retention': { type: 'string' },
  console: { type: 'boolean' },
  peer: { type: 'string', multiple: true },
  'peer-interval': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

class FlagError extends Error {}

function readPeers(given: string[] | undefined, env: Environment): PeerConfig[] {
  const peers = peersFromFlags(given, env)
  if ('error' in peers) throw new FlagError(peers.error)
  return peers
}

function readStorage(
  meta: string | undefined,
  chunks: string | undefined,
  env: Environment,
): StorageConfig {
  const storage = storageFromFlags(rawFlag('meta', meta, env), rawFlag('chunks', chunks, env))
  if ('error' in storage) throw new FlagError(storage.error)
  return storage
}

/** Reads one flag: from the command line, else the environment, else `fallback`. */
type FlagReader = <T>(
  name: (typeof CONFIGURABLE)[number],
  given: string | undefined,
  parse: (raw: string) => FlagValue<T>,
  fallback: T,
) => T

function flagReader(env: Environment): FlagReader {
  return (name, given, parse, fallback) => {
    const flag = rawFlag(name, given, env)
    if (flag === undefined) return fallback
    const parsed = parse(flag.raw)
    if ('expected' in parsed) {
      throw new FlagError(
        `invalid value for ${flag.source}: ${JSON.stringify(flag.raw)} (expected ${parsed.expected})`,
      )
    }
    return parsed.value
  }
}

function readSwitch(
  name: string,
  given: boolean | undefined,
  env: Environment,
): boolean | undefined {
  const read = switchFlag(name, given, env)
  if ('error' in read) throw new FlagError(read.error)
  return read.value
}

/**
 * Parses the server's command line (without `node` and the script path). Every option the
 * command line leaves out is read from its environment variable in `env` (`SVCDB_PORT` for
 * `--port`, and so on; see {@link SERVER_USAGE}).
 *
 * @example
 * parseServerArgs(['--port', '0', '--auth', 'disabled'])
 * parseServerArgs([], { SVCDB_PORT: '7000' }) // port 7000
 */
export function parseServerArgs(
  argv: readonly string[],
  env: Environment = process.env,
): ServerArgs {
  if (argv[0] === 'reset-root-key') return parseResetRootKeyArgs(argv.slice(1), env)
  let values: ReturnType<typeof parseArgs<{ options: typeof options }>>['values']
  try {
    values = parseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: false,
      // `--no-console`: the console is on by default.
      allowNegative: true,
    }).values
  } catch (err) {
    return {
      action: 'error',
      message: (err as Error).message.split('\n')[0] ?? 'invalid arguments',
    }
  }
  if (values.help) return { action: 'help' }
  if (values.version) return { action: 'version' }
  try {
    const d = DEFAULT_SERVER_CONFIG
    const flag = flagReader(env)
    const config: ServerConfig = {
      dataDir: flag('data', values.data, parsePath, d.dataDir),
      storage: readStorage(values.meta, values.chunks, env),
      host: flag('host', values.host, parseHost, d.host),
      port: flag('port', values.port, parsePort, d.port),
      auth: flag('auth', values.auth, parseAuthMode, d.auth),
      dev: readSwitch('dev', values.dev, env) ?? d.dev,
      nodeId: flag('node-id', values['node-id'], parseNodeId, d.nodeId),
      metricsIntervalMs: flag(
        'metrics-interval',
        values['metrics-interval'],
        parseDuration,
        d.metricsIntervalMs,
      ),
      corsOrigins: flag('cors', values.cors, parseOrigins, d.corsOrigins),
      logLevel: flag('log-level', values['log-level'], parseLogLevel, d.logLevel),
      logFormat: flag('log-format', values['log-format'], parseLogFormat, d.logFormat),
      unsafePublic: readSwitch('unsafe-public', values['unsafe-public'], env) ?? d.unsafePublic,
      webhookAllow: flag('webhook-allow', values['webhook-allow'], parseAllowList, d.webhookAllow),
      headLogRetentionMs: flag(
        'head-log-retention',
        values['head-log-retention'],
        parseRetention,
        d.headLogRetentionMs,
      ),
      console: readSwitch('console', values.console, env) ?? d.console,
      peers: readPeers(values.peer, env),
      peerIntervalMs: flag(
        'peer-interval',
        values['peer-interval'],
        parseDuration,
        d.peerIntervalMs,
      ),
    }
    if (config.auth.kind === 'disabled' && !isLoopbackHost(config.host) && !config.unsafePublic) {
      throw new FlagError(
        `--auth disabled refuses to listen on non-loopback host --host ${config.host}; pass --unsafe-public to allow it`,
      )
    }
    return { action: 'run', config }
  } catch (err) {
    if (err instanceof FlagError) return { action: 'error', message: err.message }
    throw err
  }
}
