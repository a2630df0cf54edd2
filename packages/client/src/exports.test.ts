import { expect, it } from 'vitest'
import * as api from './index'
import * as node from './node/index'

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

it('exports exactly the node surface', () => {
  expect(Object.keys(node).sort()).toMatchInlineSnapshot(`
    [
      "createClient",
      "downloadFile",
    ]
  `)
})
