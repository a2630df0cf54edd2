import type { Committer } from './committer'
import type { Mutation } from './mutation'

/** What the write path needs from the database around it. */
export interface WritePathDeps {
  committer: Committer
  /** Throws `CLOSED` once the database is closed. */
  assertOpen(): void
}

/**
 * The one way to write: mutations go to the committer (the only place refs move), and
 * uploads and imports announce themselves between their first staged chunk and their commit
 * so that pack compaction can wait for them (see {@link WritePath.hold}).
 */
export class WritePath {
  #pending = 0
  #active = 0
  #gate: Promise<void> | undefined
  #onQuiet: (() => void) | undefined

  constructor(private readonly deps: WritePathDeps) {}

  /** Mutations queued and not yet durable. */
  get pending(): number {
    return this.#pending
  }

  /** Queues a mutation and resolves once it is durable. */
  async submit<T>(mutation: Mutation<T>): Promise<T> {
    this.deps.assertOpen()
    this.#pending++
    try {
      return await this.deps.committer.submit(mutation)
    } finally {
      this.#pending--
    }
  }

  /** Marks the start of an upload or import; waits while writes are held (see hold). */
  async enter(): Promise<void> {
    while (this.#gate !== undefined) await this.#gate
    this.#active++
  }

  /** Marks the end (commit or failure) of an upload or import. */
  exit(): void {
    this.#active--
    if (this.#active === 0) this.#onQuiet?.()
  }

  /**
   * Holds new uploads and imports, waits up to `waitMs` for running ones to finish, and runs
   * `task` between commit groups once none is running; `undefined` if they did not finish in
   * time. New writes resume as soon as `task` has started.
   */
  async hold<T>(waitMs: number, task: () => T): Promise<{ value: T } | undefined> {
    let release = (): void => undefined
    this.#gate = new Promise<void>((resolve) => (release = resolve))
    try {
      if (this.#active > 0) {
        const quiet = new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), waitMs)
          this.#onQuiet = () => {
            clearTimeout(timer)
            resolve(true)
          }
        })
        const settled = await quiet
        this.#onQuiet = undefined
        if (!settled) return undefined
      }
      return await this.deps.committer.exclusive(async () =>
        this.#active === 0 ? { value: task() } : undefined,
      )
    } finally {
      this.#gate = undefined
      release()
    }
  }
}
