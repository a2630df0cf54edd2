import { expect, it } from 'vitest'
import * as api from './index'
import * as sse from './sse/index'
import * as testing from './testing/index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_RETRY_POLICY",
      "EVENT_TYPES",
      "EventsError",
      "SSE_HEADERS",
      "WEBHOOKS_CONFIG_PATH",
      "comparePositions",
      "createChannelHub",
      "createDestinationAllowList",
      "createEventBus",
      "createEventFilter",
      "createMemoryWebhookQueue",
      "createSseStream",
      "createWebhookDispatcher",
      "envelopeToSseMessage",
      "isEventType",
      "isEventsError",
      "parseEventsParam",
      "parseWebhooksConfig",
      "signWebhookBody",
      "startHeartbeat",
      "startMetricsPulse",
      "systemClock",
      "toMetricsPayload",
      "verifyWebhookSignature",
    ]
  `)
})

it('exports exactly the sse surface', () => {
  expect(Object.keys(sse).sort()).toMatchInlineSnapshot(`
    [
      "createSseDecoder",
      "decodeSseStream",
      "encodeSseComment",
      "encodeSseMessage",
    ]
  `)
})

it('exports exactly the testing surface', () => {
  expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
    [
      "createFakeClock",
      "testWebhookQueue",
    ]
  `)
})
