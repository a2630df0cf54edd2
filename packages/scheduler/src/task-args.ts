import * as v from 'valibot'
import { SchedulerError, type SchedulerIssue } from './errors'

/** The task types svcdb ships; the server registers a handler for each. */
export const BUILTIN_TASK_TYPES = ['reindex', 'gc', 'backup'] as const

/** `reindex`, `gc` or `backup`. */
export type BuiltinTaskType = (typeof BUILTIN_TASK_TYPES)[number]

/** Arguments of a `reindex` task: rebuild the query indexes of one directory. */
export interface ReindexArgs {
  /** The directory whose indexes are rebuilt. */
  path: string
}

/** Arguments of a `gc` task: collect unreachable objects and chunks. */
export interface GcArgs {
  /** Report what would be reclaimed without deleting anything. Defaults to `false`. */
  dry_run: boolean
}

/**
 * Arguments of a `backup` task: write a `.svcdb` export of a version to a directory and
 * prune older backups there.
 */
export interface BackupArgs {
  /** The snapshot to export; HEAD when absent. */
  snapshot?: string
  /** The directory the export goes to, absolute or relative to the data directory; `<data>/backups` when absent. */
  dir?: string
  /** How many backup files to keep in `dir` (older ones are deleted); all when absent. */
  keep?: number
}

/** The arguments of each built-in task type. */
export interface BuiltinTaskArgs {
  reindex: ReindexArgs
  gc: GcArgs
  backup: BackupArgs
}

/** The arguments type of task type `T`: a built-in's own, any JSON object otherwise. */
export type TaskArgsOf<T extends string> = T extends BuiltinTaskType
  ? BuiltinTaskArgs[T]
  : Record<string, unknown>

const noNul = v.check((s: string) => !s.includes('\0'), 'must not contain NUL characters')

const schemas = {
  reindex: v.strictObject({
    path: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(4096), noNul),
  }),
  gc: v.strictObject({ dry_run: v.optional(v.boolean(), false) }),
  backup: v.strictObject({
    snapshot: v.exactOptional(
      v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(255), noNul),
    ),
    dir: v.exactOptional(
      v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(4096), noNul),
    ),
    keep: v.exactOptional(
      v.pipe(
        v.number(),
        v.integer('must be a whole number'),
        v.minValue(1, 'must be at least 1'),
        v.maxValue(100_000, 'must be at most 100000'),
      ),
    ),
  }),
}

function isBuiltin(taskType: string): taskType is BuiltinTaskType {
  return (BUILTIN_TASK_TYPES as readonly string[]).includes(taskType)
}

function invalid(taskType: string, issues: SchedulerIssue[]): SchedulerError {
  const detail = issues.map((i) => (i.path === '' ? i.message : `${i.path}: ${i.message}`))
  return new SchedulerError(
    'INVALID_ARGS',
    `invalid arguments for a ${taskType} task: ${detail.join('; ')}`,
    { issues },
  )
}

/** The path of the first value in `value` that JSON cannot carry, or `undefined`. */
function findNonJson(value: unknown, path: string): SchedulerIssue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { path, message: 'must be a finite number' }
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNonJson(item, path === '' ? String(i) : `${path}.${i}`)
      if (found) return found
    }
    return undefined
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown
    if (proto !== Object.prototype && proto !== null) {
      return { path, message: 'must be a plain JSON object' }
    }
    for (const [key, item] of Object.entries(value)) {
      const found = findNonJson(item, path === '' ? key : `${path}.${key}`)
      if (found) return found
    }
    return undefined
  }
  return { path, message: `a ${typeof value} is not JSON` }
}

/**
 * Validates `args` for a task of `taskType` and returns them normalised (defaults filled
 * in, e.g. `gc` gets `dry_run: false`). Built-in types are checked field by field and refuse
 * unknown fields; other types accept any JSON object.
 *
 * @throws {SchedulerError} `INVALID_ARGS`, with one `issues` entry per problem.
 * @example
 * parseTaskArgs('gc', {}) // { dry_run: false }
 * parseTaskArgs('backup', { keep: 0 }) // throws INVALID_ARGS: keep: must be at least 1
 */
export function parseTaskArgs<T extends string>(taskType: T, args: unknown): TaskArgsOf<T> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw invalid(taskType, [{ path: '', message: 'must be a JSON object' }])
  }
  if (isBuiltin(taskType)) {
    const parsed = v.safeParse(schemas[taskType], args)
    if (parsed.success) return parsed.output as TaskArgsOf<T>
    throw invalid(
      taskType,
      parsed.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message })),
    )
  }
  const problem = findNonJson(args, '')
  if (problem) throw invalid(taskType, [problem])
  return structuredClone(args) as TaskArgsOf<T>
}
