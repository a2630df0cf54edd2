import { describe, expect, it } from 'vitest'
import { DEFAULT_PORT, readEnvConfig } from './env-config'
import { isSessionsAppError } from './errors'

const base = { SVCDB_URL: 'http://127.0.0.1:6830', SVCDB_API_KEY: 'svc_k_x' }

describe('readEnvConfig', () => {
  it('reads the required variables and defaults the rest', () => {
    expect(readEnvConfig(base)).toEqual({
      svcdbUrl: 'http://127.0.0.1:6830',
      apiKey: 'svc_k_x',
      port: DEFAULT_PORT,
      host: '127.0.0.1',
      collection: '/sessions',
    })
    expect(
      readEnvConfig({ ...base, PORT: '0', HOST: '::1', SESSIONS_COLLECTION: '/apps/s' }),
    ).toMatchObject({ port: 0, host: '::1', collection: '/apps/s' })
  })

  it.each([
    [{ SVCDB_API_KEY: 'k' }, 'SVCDB_URL is not set'],
    [{ SVCDB_URL: 'http://x' }, 'SVCDB_API_KEY is not set'],
    [{ ...base, SVCDB_URL: 'not a url' }, 'SVCDB_URL is not a URL'],
    [{ ...base, PORT: '70000' }, 'PORT must be a port number'],
    [{ ...base, PORT: 'eighty' }, 'PORT must be a port number'],
    [{ ...base, SESSIONS_COLLECTION: 'sessions' }, 'SESSIONS_COLLECTION must be an absolute'],
  ])('refuses %j with INVALID_CONFIG', (env, message) => {
    let caught: unknown
    try {
      readEnvConfig(env)
    } catch (err) {
      caught = err
    }
    expect(isSessionsAppError(caught, 'INVALID_CONFIG')).toBe(true)
    expect((caught as Error).message).toContain(message)
  })
})
