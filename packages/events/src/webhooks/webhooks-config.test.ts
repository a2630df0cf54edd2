import { describe, expect, it } from 'vitest'
import { isEventsError } from '../errors'
import { parseWebhooksConfig, WEBHOOKS_CONFIG_PATH } from './webhooks-config'

const hook = (extra: Record<string, unknown> = {}) => ({
  id: 'ci',
  url: 'https://hooks.example.com/svcdb',
  events: ['entries_created'],
  secret: 's3cret-s3cret-s3cret',
  ...extra,
})
const file = (...hooks: unknown[]) => JSON.stringify({ webhooks: hooks })

const failure = (text: string | Uint8Array) => {
  try {
    parseWebhooksConfig(text)
  } catch (err) {
    expect(isEventsError(err, 'INVALID_WEBHOOK_CONFIG')).toBe(true)
    return (err as Error).message
  }
  throw new Error('expected the configuration to be refused')
}

describe('parseWebhooksConfig', () => {
  it('reads the DESIGN §5 format into camelCase, active by default', () => {
    expect(WEBHOOKS_CONFIG_PATH).toBe('/.svcdb/webhooks.json')
    const text = file(
      hook(),
      hook({
        id: 'docs',
        events: ['entries_deleted', 'indexes_changed'],
        path_prefix: '/docs/',
        active: false,
      }),
    )
    expect(parseWebhooksConfig(new TextEncoder().encode(text))).toEqual([
      {
        id: 'ci',
        url: 'https://hooks.example.com/svcdb',
        events: ['entries_created'],
        secret: 's3cret-s3cret-s3cret',
        active: true,
      },
      {
        id: 'docs',
        url: 'https://hooks.example.com/svcdb',
        events: ['entries_deleted', 'indexes_changed'],
        pathPrefix: '/docs/',
        secret: 's3cret-s3cret-s3cret',
        active: false,
      },
    ])
    expect(parseWebhooksConfig('{"webhooks": []}')).toEqual([])
  })

  it('reports text that is not JSON', () => {
    expect(failure('{"webhooks": [')).toBe(`${WEBHOOKS_CONFIG_PATH} is not valid JSON`)
  })

  it.each([
    ['a missing list', '{}', /webhooks/],
    ['an unknown top-level key', '{"webhooks": [], "hooks": []}', /hooks/],
    ['an unknown webhook key', file(hook({ path_prefx: '/a' })), /webhooks\.0/],
    [
      'a non-http URL',
      file(hook({ url: 'ftp://example.com/x' })),
      /webhooks\.0\.url: must be an http\(s\) URL/,
    ],
    [
      'a malformed URL',
      file(hook({ url: 'not a url' })),
      /webhooks\.0\.url: must be an http\(s\) URL/,
    ],
    ['an unknown event type', file(hook({ events: ['entries_moved'] })), /webhooks\.0\.events\.0/],
    ['events_lost', file(hook({ events: ['events_lost'] })), /webhooks\.0\.events\.0/],
    ['no event types', file(hook({ events: [] })), /at least one event type/],
    ['a short secret', file(hook({ secret: 'short' })), /webhooks\.0\.secret: must be at least 16/],
    [
      'a relative path prefix',
      file(hook({ path_prefix: 'docs' })),
      /path_prefix: must start with \//,
    ],
    ['a bad id', file(hook({ id: '../x' })), /webhooks\.0\.id/],
    ['a non-boolean active', file(hook({ active: 'yes' })), /webhooks\.0\.active/],
    ['duplicate ids', file(hook(), hook()), /ids must be unique/],
  ])('refuses %s, naming where', (_, text, expected) => {
    expect(failure(text)).toMatch(expected)
  })

  it('names several problems at once and keeps the validation issues as cause', () => {
    let caught: unknown
    try {
      parseWebhooksConfig(file(hook({ secret: 'x', url: 'nope' })))
    } catch (err) {
      caught = err
    }
    expect((caught as Error).message).toMatch(/url.*; .*secret|secret.*; .*url/)
    expect((caught as Error).cause).toBeInstanceOf(Error)
  })
})
