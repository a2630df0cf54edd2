export type { CliIo } from './cli-io'
export { EXIT_CODES } from './exit-codes'
export type { ExitCode } from './exit-codes'
export { CLI_USAGE, CLI_VERSION, runCli } from './run-cli'
