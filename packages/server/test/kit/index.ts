// The server's one test kit: in-process suites build their app, database and auth with
// startTestApp; end-to-end suites start the built binary with startServerProcess (they import
// ./server-process and ./smtp-test-server directly, so they load none of the server's sources).
// It lives under test/, outside tsup's entries, so none of it ships in dist.
export { callerOf, requestsAs } from './app-requests'
export type { CallOptions, RequestableApp, TestRequest } from './app-requests'
export { errorCode, errorOf, expectError } from './error-answers'
export { identityCaller, identityRoutes } from './identity-routes'
export {
  fingerprint,
  followEvents,
  peerArguments,
  peerKeyVariable,
  pollUntil,
  startPeerNode,
} from './peer-servers'
export type {
  EventFollower,
  PeerLink,
  PeerNode,
  PeerNodeOptions,
  StreamedEvent,
  SyncStats,
} from './peer-servers'
export { client, login, startServerProcess } from './server-process'
export type { ServerProcess, ServerProcessOptions } from './server-process'
export { closedPort, startSmtpTestServer } from './smtp-test-server'
export type { ReceivedMail, SmtpTestServer, SmtpTestServerOptions } from './smtp-test-server'
export { openTempDatabase } from './temp-database'
export type { TempDatabase } from './temp-database'
export { startTcpProxy } from './tcp-proxy'
export type { TcpProxy, TcpProxyOptions } from './tcp-proxy'
export { startTestApp } from './test-app'
export type { TestApp, TestAppDeps, TestAppOptions } from './test-app'
export { waitUntil } from './wait-until'
export { startWebhookReceiver } from './webhook-receiver'
export type { ReceivedDelivery, WebhookReceiver } from './webhook-receiver'
