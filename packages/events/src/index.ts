export { comparePositions } from './change-log'
export type { ChangeEvent, ChangeLog, ChangePosition } from './change-log'
export { createChannelHub } from './channel-hub'
export type {
  ChannelDelivery,
  ChannelHub,
  ChannelHubOptions,
  ChannelMessage,
  ChannelSubscription,
} from './channel-hub'
export { systemClock } from './clock'
export type { CancelTimer, Clock } from './clock'
export { EventsError, isEventsError } from './errors'
export type { EventsErrorCode, EventsErrorOptions } from './errors'
export { createEventBus } from './event-bus'
export type { EventBus, EventBusOptions, PublishOptions, SubscribeOptions } from './event-bus'
export type { Subscription } from './subscription'
export { createEventFilter } from './event-filter'
export type { EventFilter, EventFilterOptions } from './event-filter'
export { EVENT_TYPES, isEventType } from './event-types'
export type {
  BusEventType,
  EntriesPayload,
  EntryKind,
  EventEntry,
  EventEnvelope,
  EventMap,
  EventsLostPayload,
  EventsLostReason,
  EventType,
  HeartbeatPayload,
  PathPayload,
  VersionsCreatedPayload,
} from './event-types'
export { parseEventsParam } from './events-param'
export { startHeartbeat } from './heartbeat'
export type { HeartbeatOptions } from './heartbeat'
export { toMetricsPayload } from './metrics-payload'
export type {
  MetricsCounts,
  MetricsHealth,
  MetricsPayload,
  MetricsSizes,
  MetricsThroughput,
  PeakRateWindows,
  RateWindows,
} from './metrics-payload'
export { startMetricsPulse } from './metrics-pulse'
export type { MetricsPulseOptions } from './metrics-pulse'
export type { Pulse } from './pulse'
export type { SseMessage } from './sse/encode-sse'
export { createSseStream, envelopeToSseMessage, SSE_HEADERS } from './sse-stream'
export type { SseSource, SseStreamOptions } from './sse-stream'
export { createDestinationAllowList } from './webhooks/destination-allow-list'
export type { DestinationAllowList } from './webhooks/destination-allow-list'
export { createMemoryWebhookQueue } from './webhooks/memory-webhook-queue'
export { DEFAULT_RETRY_POLICY } from './webhooks/retry-policy'
export type { RetryPolicy } from './webhooks/retry-policy'
export { createWebhookDispatcher } from './webhooks/webhook-dispatcher'
export type {
  WebhookDispatcher,
  WebhookDispatcherOptions,
  WebhookStats,
} from './webhooks/webhook-dispatcher'
export type { WebhooksLoadResult } from './webhooks/webhook-set'
export type { WebhookDelivery, WebhookQueue } from './webhooks/webhook-queue'
export type { WebhookLeases } from './webhooks/webhook-lock'
export { signWebhookBody, verifyWebhookSignature } from './webhooks/webhook-signature'
export { parseWebhooksConfig, WEBHOOKS_CONFIG_PATH } from './webhooks/webhooks-config'
export type { WebhookConfig } from './webhooks/webhooks-config'
