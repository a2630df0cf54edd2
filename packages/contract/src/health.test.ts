import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { healthResponseSchema } from './health'
import { isRouteAuth } from './route'
import { routes } from './routes'

describe('healthResponseSchema', () => {
  it.each(['ok', 'degraded'])('accepts status %s', (status) => {
    expect(v.is(healthResponseSchema, { status, version: '0.1.0' })).toBe(true)
  })

  it.each([
    { status: 'fine', version: '0.1.0' },
    { status: 'ok' },
    { status: 'ok', version: '' },
    { status: 'ok', version: 1 },
    { status: 'ok', version: '0.1.0', uptime: 3 },
  ])('rejects %j', (body) => {
    expect(v.is(healthResponseSchema, body)).toBe(false)
  })
})

describe('routes', () => {
  it('declare a valid auth level and a unique id for every entry', () => {
    const ids = new Set<string>()
    for (const route of Object.values(routes)) {
      expect(isRouteAuth(route.auth), route.id).toBe(true)
      expect(ids.has(route.id), route.id).toBe(false)
      ids.add(route.id)
    }
  })

  it('serve health without a credential, as the spec requires', () => {
    expect(routes.systemHealth).toMatchObject({
      method: 'GET',
      path: '/system/health',
      auth: 'none',
    })
  })
})
