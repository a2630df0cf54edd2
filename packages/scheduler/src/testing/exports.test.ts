import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the testing surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "createControlledHandler",
      "createFakeClock",
      "runScheduleStoreConformance",
      "runTaskStoreConformance",
    ]
  `)
})
