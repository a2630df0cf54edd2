import { createMemoryTaskStore } from './memory-task-store'
import { runTaskStoreConformance } from './testing/task-store-conformance'

runTaskStoreConformance('memory', () => createMemoryTaskStore())
