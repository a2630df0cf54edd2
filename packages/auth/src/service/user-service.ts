import { AuthError } from '../errors'
import { isUuid } from '../internal/uuid'
import { ROOT_USER_ID, parseCreateUserInput, parseUpdateUserInput } from '../users/user'
import type { CreateUserInput, UpdateUserInput, User } from '../users/user'
import type { AuthContext } from './auth-context'

/** User administration (root only; the server's route table enforces that). */
export interface UserService {
  /** @throws {AuthError} `INVALID_INPUT`; `CONFLICT` for a taken username or email. */
  create(input: CreateUserInput): Promise<User>
  /** @throws {AuthError} `INVALID_INPUT` for a malformed id; `NOT_FOUND`. */
  get(userId: string): Promise<User>
  list(): Promise<User[]>
  /**
   * Changes any of username, email (`null` removes it), isActive and tags.
   *
   * @throws {AuthError} as `get`; `CONFLICT`; `FORBIDDEN` to deactivate root.
   */
  update(userId: string, input: UpdateUserInput): Promise<User>
  /** Soft delete: `isActive` false; the user's tokens stop working at once. */
  deactivate(userId: string): Promise<{ deactivated: boolean; userId: string }>
}

/** The users of one `Auth`. */
export function createUserService(ctx: AuthContext): UserService {
  const get = async (userId: string) => {
    if (!isUuid(userId)) throw new AuthError('INVALID_INPUT', 'user id must be a UUID')
    const user = await ctx.store.getUser(userId.toLowerCase())
    if (user === undefined) throw new AuthError('NOT_FOUND', 'no such user')
    return user
  }
  const update = async (userId: string, input: UpdateUserInput) => {
    const patch = parseUpdateUserInput(input)
    const user = await get(userId)
    if (user.userId === ROOT_USER_ID && patch.isActive === false) {
      throw new AuthError('FORBIDDEN', 'the root user cannot be deactivated')
    }
    const { email, ...rest } = patch
    const next: User = { ...user, ...rest, updatedAt: ctx.clock.now() }
    if (email === null) delete next.email
    else if (email !== undefined) next.email = email
    await ctx.store.updateUser(next)
    ctx.cache.invalidate()
    return next
  }
  return {
    async create(input) {
      const fields = parseCreateUserInput(input)
      const now = ctx.clock.now()
      const user: User = {
        userId: ctx.newId(),
        username: fields.username,
        isActive: true,
        tags: fields.tags ?? [],
        createdAt: now,
        updatedAt: now,
      }
      if (fields.email !== undefined) user.email = fields.email
      await ctx.store.createUser(user)
      ctx.cache.invalidate()
      return user
    },
    get,
    list: () => ctx.store.listUsers(),
    update,
    async deactivate(userId) {
      const user = await update(userId, { isActive: false })
      return { deactivated: true, userId: user.userId }
    },
  }
}
