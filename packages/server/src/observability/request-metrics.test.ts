import { Counter, Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { createRequestMetrics } from './request-metrics'

const bounds = [0.001, 0.01, 0.1, 1]
const requests: [method: string, route: string, status: number, seconds: number][] = [
  ['GET', '/files/*', 200, 0.0004],
  ['GET', '/files/*', 200, 0.001],
  ['GET', '/files/*', 304, 0.05],
  ['PUT', '/files/*', 201, 3],
  ['GET', '/system/stats', 500, 0.2],
]

describe('request-metrics', () => {
  it('prints what prom-client prints for the same requests', async () => {
    const expected = new Registry()
    const counter = new Counter({
      name: 'svcdb_http_requests_total',
      help: 'HTTP requests answered, by route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [expected],
    })
    const histogram = new Histogram({
      name: 'svcdb_http_request_duration_seconds',
      help: 'Time to the response head, by route',
      labelNames: ['method', 'route'],
      buckets: bounds,
      registers: [expected],
    })
    const actual = new Registry()
    const metrics = createRequestMetrics(actual, bounds)
    for (const [method, route, status, seconds] of requests) {
      histogram.observe({ method, route }, seconds)
      counter.inc({ method, route, status: String(status) })
      metrics.record(method, route, status, seconds)
    }
    // Registered in the other order here: compare metric by metric.
    const byName = (text: string) => text.trim().split('\n\n').sort()
    expect(byName(await actual.metrics())).toEqual(byName(await expected.metrics()))
    expect(await actual.metrics()).toContain(
      'svcdb_http_requests_total{method="GET",route="/files/*",status="200"} 2',
    )
  })

  it('starts again from nothing when the registry is reset', async () => {
    const registry = new Registry()
    const metrics = createRequestMetrics(registry, bounds)
    metrics.record('GET', '/x', 200, 0.5)
    registry.resetMetrics()
    expect(await registry.metrics()).not.toContain('route="/x"')
  })
})
