import { expect, it } from 'vitest'
import * as api from './index'

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
