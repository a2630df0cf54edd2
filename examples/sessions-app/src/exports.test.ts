import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "SESSIONS_APP_ROUTES",
      "SessionsAppError",
      "createSessionsApp",
      "dispatchRecordSchema",
      "isSessionId",
      "isSessionsAppError",
      "sessionEventSchema",
      "sessionIdSchema",
      "sessionInputSchema",
      "sessionSchema",
    ]
  `)
})
