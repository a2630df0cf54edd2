import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "ERROR_CODES",
      "ROUTE_AUTHS",
      "defineRoute",
      "errorBodySchema",
      "errorCodeSchema",
      "errorStatus",
      "healthResponseSchema",
      "healthStatusSchema",
      "isErrorCode",
      "isRouteAuth",
      "routes",
      "validationIssueSchema",
    ]
  `)
})
