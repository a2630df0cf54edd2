export { emailRouteHandlers } from './email-route-handlers'
export type { EmailRoutesContext } from './email-route-handlers'
