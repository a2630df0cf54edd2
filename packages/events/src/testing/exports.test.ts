import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface of @svcdb/events/testing', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "createFakeClock",
      "testWebhookQueue",
    ]
  `)
})
