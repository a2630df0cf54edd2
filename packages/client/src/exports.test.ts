import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "ClientError",
      "chunkHash",
      "clientErrorFromBody",
      "contentHash",
      "createClient",
      "isClientError",
    ]
  `)
})
