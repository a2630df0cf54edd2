export { createFakeClock } from './fake-clock'
export type { FakeClock } from './fake-clock'
export { testWebhookQueue } from './webhook-queue-conformance'
export type { WebhookQueueSuiteOptions } from './webhook-queue-conformance'
