export { EngineError, isEngineError } from './errors'
export type { EngineErrorCode, EngineErrorOptions } from './errors'
