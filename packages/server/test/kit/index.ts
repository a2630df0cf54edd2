// The server's one test kit: every in-process suite builds its app, database and auth here.
// It lives under test/, outside tsup's entries, so none of it ships in dist.
export { callerOf, requestsAs } from './app-requests'
export type { CallOptions, RequestableApp, TestRequest } from './app-requests'
export { errorCode, errorOf, expectError } from './error-answers'
export { identityCaller, identityRoutes } from './identity-routes'
export { closedPort, startSmtpTestServer } from './smtp-test-server'
export type { ReceivedMail, SmtpTestServer, SmtpTestServerOptions } from './smtp-test-server'
export { openTempDatabase } from './temp-database'
export type { TempDatabase } from './temp-database'
export { startTestApp } from './test-app'
export type { TestApp, TestAppDeps, TestAppOptions } from './test-app'
