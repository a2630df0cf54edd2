import { expect, it } from 'vitest'
import * as api from './index'
import * as testing from './testing/index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "BUILTIN_TASK_TYPES",
      "DEFAULT_TASK_RETENTION",
      "SchedulerError",
      "TASK_STATUSES",
      "TERMINAL_TASK_STATUSES",
      "createCronScheduler",
      "createMemoryScheduleStore",
      "createMemoryTaskStore",
      "createScheduler",
      "createTaskRunner",
      "estimateEta",
      "isSchedulerError",
      "isTerminalStatus",
      "matchesTaskFilter",
      "parseCronExpression",
      "parseTaskArgs",
      "selectExpiredTasks",
      "systemClock",
    ]
  `)
})

it('exports exactly the testing surface', () => {
  expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
    [
      "createControlledHandler",
      "createFakeClock",
      "runScheduleStoreConformance",
      "runTaskStoreConformance",
    ]
  `)
})
