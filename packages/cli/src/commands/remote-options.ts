import type { OptionSpecs } from '../command'
import { stringOption } from '../option-value'

/** `--fork`, for commands that write. */
export const forkOption = {
  fork: { type: 'string', help: 'Work on this fork instead of HEAD.' },
} as const satisfies OptionSpecs
/** `--fork`, `--snapshot`, `--version`: which version a command reads. */
export const versionOptions = {
  fork: { type: 'string', help: 'Read this fork instead of HEAD.' },
  snapshot: { type: 'string', help: 'Read this snapshot instead of HEAD.' },
  version: { type: 'string', value: 'HASH', help: 'Read this stored version instead of HEAD.' },
} as const satisfies OptionSpecs

/** The version selector those options give. */
export const selector = (values: Record<string, unknown>) => {
  const out: { fork?: string; snapshot?: string; version?: string } = {}
  for (const key of ['fork', 'snapshot', 'version'] as const) {
    const value = stringOption(values[key])
    if (value !== undefined) out[key] = value
  }
  return out
}

/** Remote paths are absolute; `docs/a.txt` means `/docs/a.txt`. */
export const remote = (path: string) => (path.startsWith('/') ? path : `/${path}`)
