export { ClientError, clientErrorFromBody, isClientError } from './errors'
export type { ClientErrorCode, ClientErrorOptions } from './errors'
