import { SessionsAppError } from './errors'

/** What `main.ts` reads from the environment. */
export interface EnvConfig {
  /** `SVCDB_URL`, required: the svcdb server, e.g. `http://127.0.0.1:6830`. */
  svcdbUrl: string
  /** `SVCDB_API_KEY`, required: the key the app stores sessions with. */
  apiKey: string
  /** `PORT`, default 6840. */
  port: number
  /** `HOST`, default `127.0.0.1`. */
  host: string
  /** `SESSIONS_COLLECTION`, default `/sessions`. */
  collection: string
}

/** The port the app listens on when `PORT` is not set. */
export const DEFAULT_PORT = 6840

/** Reads the configuration; `INVALID_CONFIG` names the first variable that is wrong. */
export function readEnvConfig(env: Record<string, string | undefined>): EnvConfig {
  const required = (name: string) => {
    const value = env[name]?.trim()
    if (value === undefined || value === '')
      throw new SessionsAppError('INVALID_CONFIG', `${name} is not set`)
    return value
  }
  const svcdbUrl = required('SVCDB_URL')
  if (!URL.canParse(svcdbUrl))
    throw new SessionsAppError('INVALID_CONFIG', `SVCDB_URL is not a URL: '${svcdbUrl}'`)
  const port = Number(env.PORT ?? DEFAULT_PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new SessionsAppError('INVALID_CONFIG', `PORT must be a port number, got '${env.PORT}'`)
  const collection = env.SESSIONS_COLLECTION ?? '/sessions'
  if (!collection.startsWith('/'))
    throw new SessionsAppError(
      'INVALID_CONFIG',
      `SESSIONS_COLLECTION must be an absolute svcdb path, got '${collection}'`,
    )
  return {
    svcdbUrl,
    apiKey: required('SVCDB_API_KEY'),
    port,
    host: env.HOST ?? '127.0.0.1',
    collection,
  }
}
