import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "ERROR_CODES",
      "MAX_IMPORT_BYTES",
      "ROUTE_AUTHS",
      "booleanQuerySchema",
      "createCronBodySchema",
      "cronScheduleSchema",
      "defineRoute",
      "errorBodySchema",
      "errorCodeSchema",
      "errorStatus",
      "gcResultSchema",
      "healthResponseSchema",
      "healthStatusSchema",
      "importResultSchema",
      "isErrorCode",
      "isRouteAuth",
      "patchCronBodySchema",
      "promoteResponseSchema",
      "routes",
      "statsResponseSchema",
      "taskRefSchema",
      "taskSchema",
      "validationIssueSchema",
      "versionHashSchema",
    ]
  `)
})
