import type { Clock } from './clock'
import type { SchedulerError } from './errors'
import type { Task } from './task'
import type { TaskArgsOf } from './task-args'
import type { TaskHandler } from './task-handler'
import type { TaskRetention } from './task-retention'
import type { TaskFilter, TaskStore } from './task-store'

/** Options of `createTaskRunner`. */
export interface TaskRunnerOptions {
  /** Where tasks persist; in memory when absent. */
  store?: TaskStore
  clock?: Clock
  /** How many tasks run at once (default 1). */
  concurrency?: number
  /** How many finished tasks are kept, and how long. */
  retention?: TaskRetention
  /** Progress is written to the store at most this often per task (default 1000 ms). */
  progressWriteIntervalMs?: number
  /** Makes task ids; UUIDv7 (sortable by creation) by default. */
  generateId?: () => string
  /** Called with a copy of a task after each change of status is stored. */
  onChange?: (task: Task) => void
  /** Called with failures that no caller can receive, such as a store error while dequeuing. */
  onError?: (error: SchedulerError) => void
  /**
   * This node's id, when runners on several nodes share one store (which must then have
   * `putIf`): claims record it as the task's `owner`, and `start` recovers only the running
   * tasks of this node or of nodes `isNodeAlive` calls dead.
   */
  nodeId?: string
  /**
   * How often (ms) a runner with a `nodeId` looks at the store for what other nodes did:
   * pending tasks to claim, cancels of its running tasks, tasks of dead nodes, ends of
   * awaited tasks (default 5000). {@link TaskRunner.wake} looks at once.
   */
  pollMs?: number
  /**
   * Whether node `nodeId` is alive (for example, is in `Cluster.nodes()`). Running tasks of
   * a dead node go back to `pending`. Without it no other node's task is ever recovered.
   */
  isNodeAlive?: (nodeId: string) => Promise<boolean>
}

/** Options of {@link TaskRunner.register}. */
export interface RegisterOptions<A> {
  /** Validates and normalises arguments; defaults to `parseTaskArgs`. */
  parseArgs?: (args: unknown) => A
}

/** Options of {@link TaskRunner.enqueue}. */
export interface EnqueueOptions {
  /** The cron schedule enqueuing the task. */
  scheduleId?: string
  /**
   * The task's id instead of a generated one. The task is then created only if no task has
   * this id (with `putIf` when the store has it, so of several nodes exactly one creates it);
   * otherwise `enqueue` fails with `CONFLICT`.
   */
  id?: string
}

/** The task queue: a handler registry, enqueue, list, get, cancel, and the loop that runs tasks. */
export interface TaskRunner {
  /**
   * Registers the handler of a task type; built-in types get their arguments typed and validated.
   *
   * @throws {TypeError} when the type is empty or already registered.
   */
  register<T extends string>(
    taskType: T,
    handler: TaskHandler<TaskArgsOf<T>>,
    options?: RegisterOptions<TaskArgsOf<T>>,
  ): void
  /** True when a handler is registered for `taskType`. */
  handles(taskType: string): boolean
  /** The arguments a task of `taskType` would get (`UNKNOWN_TASK_TYPE`, `INVALID_ARGS`). */
  parseArgs(taskType: string, args: unknown): Record<string, unknown>
  /**
   * Stores a new `pending` task and returns it (`UNKNOWN_TASK_TYPE`, `INVALID_ARGS`, and
   * `CONFLICT` when `options.id` is taken).
   */
  enqueue(taskType: string, args: unknown, options?: EnqueueOptions): Promise<Task>
  /** The task with that id, with live progress (`NOT_FOUND`). */
  get(id: string): Promise<Task>
  /** Tasks matching `filter`, oldest first when ids are the default UUIDv7s. */
  list(filter?: TaskFilter): Promise<Task[]>
  /**
   * Moves the task to `cancelled` from any status, aborting its handler's signal if it is
   * running, and returns it (`NOT_FOUND`). Cancelling a cancelled task changes nothing.
   */
  cancel(id: string): Promise<Task>
  /** Resolves with the task once it is completed, failed or cancelled; rejects when `signal` aborts. */
  waitFor(id: string, options?: { signal?: AbortSignal }): Promise<Task>
  /**
   * Puts tasks left `running` by a previous process back to `pending` (with a `nodeId`: only
   * this node's and dead nodes'), then starts running tasks.
   */
  start(): Promise<void>
  /**
   * Looks at the store now for what other nodes did, as the poll does (but for dead nodes'
   * tasks, left to the poll); call it when the shared store signals a change. Cheap to call
   * often: calls during a look collapse into one more. Does nothing before `start`.
   */
  wake(): void
  /**
   * Stops taking tasks, aborts the running ones (reason `STOPPED`) and waits for their handlers;
   * those that end by throwing go back to `pending`, to run again on the next start.
   */
  stop(): Promise<void>
}
