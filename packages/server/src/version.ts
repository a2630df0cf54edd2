import packageJson from '../package.json' with { type: 'json' }

/** The server's version, as reported by health and stats. */
export const SERVER_VERSION: string = packageJson.version
