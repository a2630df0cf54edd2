import { AuthError } from '../errors'
import { applyGroupUpdate, parseCreateGroupInput } from '../groups/group'
import { isGroupMember } from '../groups/group-membership'
import type { User } from '../users/user'
import type { CreateGroupInput, Group, UpdateGroupInput } from '../groups/group'
import type { AuthContext } from './auth-context'

/** Group administration (root only; the server's route table enforces that). */
export interface GroupService {
  /**
   * @throws {AuthError} `UNSAFE_QUERY_FIELD`; `INVALID_INPUT`; `CONFLICT` for a taken name.
   */
  create(input: CreateGroupInput): Promise<Group>
  /** @throws {AuthError} `NOT_FOUND`. */
  get(name: string): Promise<Group>
  list(): Promise<Group[]>
  /** The users the group's query selects now, active or not. @throws {AuthError} `NOT_FOUND`. */
  members(name: string): Promise<User[]>
  /** @throws {AuthError} as `create`, and `NOT_FOUND`. */
  update(name: string, input: UpdateGroupInput): Promise<Group>
  /** Deletes the group and its shares. @throws {AuthError} `NOT_FOUND`. */
  delete(name: string): Promise<{ deleted: boolean; name: string }>
}

/** The groups of one `Auth`. */
export function createGroupService(ctx: AuthContext): GroupService {
  const get = async (name: string) => {
    const group = typeof name === 'string' ? await ctx.store.getGroup(name) : undefined
    if (group === undefined) throw new AuthError('NOT_FOUND', 'no such group')
    return group
  }
  return {
    async create(input) {
      const fields = parseCreateGroupInput(input)
      const now = ctx.clock.now()
      const group = { ...fields, createdAt: now, updatedAt: now } as Group
      await ctx.store.createGroup(group)
      ctx.cache.invalidate()
      return group
    },
    get,
    list: () => ctx.store.listGroups(),
    async members(name) {
      const group = await get(name)
      return (await ctx.store.listUsers()).filter((user) => isGroupMember(group, user))
    },
    async update(name, input) {
      const group = applyGroupUpdate(await get(name), input, ctx.clock.now())
      await ctx.store.updateGroup(group)
      ctx.cache.invalidate()
      return group
    },
    async delete(name) {
      if (typeof name !== 'string' || !(await ctx.store.deleteGroup(name))) {
        throw new AuthError('NOT_FOUND', 'no such group')
      }
      ctx.cache.invalidate()
      return { deleted: true, name }
    },
  }
}
