import { createMemoryScheduleStore } from './memory-schedule-store'
import { runScheduleStoreConformance } from './testing/schedule-store-conformance'

runScheduleStoreConformance('memory', () => createMemoryScheduleStore())
