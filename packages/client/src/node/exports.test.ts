import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface of @svcdb/client/node', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "createClient",
      "downloadFile",
    ]
  `)
})
