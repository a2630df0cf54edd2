export { createControlledHandler } from './controlled-handler'
export type {
  ControlledHandler,
  ControlledHandlerOptions,
  ControlledRun,
} from './controlled-handler'
export { createFakeClock } from './fake-clock'
export type { FakeClock } from './fake-clock'
export { runScheduleStoreConformance } from './schedule-store-conformance'
export { runTaskStoreConformance } from './task-store-conformance'
export type { StoreConformanceOptions } from './task-store-conformance'
