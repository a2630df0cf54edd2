export { authRouteHandlers } from './auth-route-handlers'
export type { IdentityRoutesContext } from './auth-route-handlers'
export { groupRouteHandlers } from './group-route-handlers'
export { userRouteHandlers } from './user-route-handlers'
