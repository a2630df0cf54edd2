export { ERROR_CODES, errorCodeSchema, errorStatus, isErrorCode } from './error-codes'
export type { ErrorCode } from './error-codes'
export { errorBodySchema, validationIssueSchema } from './error-body'
export type { ErrorBody, ValidationIssue } from './error-body'
export { healthResponseSchema, healthStatusSchema } from './health'
export type { HealthResponse } from './health'
export { ROUTE_AUTHS, defineRoute, isRouteAuth } from './route'
export type { AnySchema, HttpMethod, RouteAuth, RouteDef, RouteRequest } from './route'
export { routes } from './routes'
export type { RouteName } from './routes'
export { booleanQuerySchema, versionHashSchema } from './query-values'
export { statsResponseSchema } from './stats'
export type { StatsResponse } from './stats'
export {
  createCronBodySchema,
  cronScheduleSchema,
  gcResultSchema,
  patchCronBodySchema,
  taskRefSchema,
  taskSchema,
} from './tasks'
export type { CronScheduleView, GcResultView, TaskView } from './tasks'
export { importResultSchema, MAX_IMPORT_BYTES, promoteResponseSchema } from './versions'
export type { ImportResultView } from './versions'
