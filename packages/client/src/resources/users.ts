import { routes } from '@svcdb/contract'
import type { GroupView, UserView } from '@svcdb/contract'
import type { BodyOf, CallOptions } from '../http/route-types'
import type { ResponseOf, Transport } from '../http/transport'

/** Users (root). */
export interface UsersApi {
  create(input: BodyOf<typeof routes.usersCreate>, options?: CallOptions): Promise<UserView>
  list(options?: CallOptions): Promise<UserView[]>
  get(userId: string, options?: CallOptions): Promise<UserView>
  update(
    userId: string,
    input: BodyOf<typeof routes.usersUpdate>,
    options?: CallOptions,
  ): Promise<UserView>
  /** Deactivates the user (the spec's DELETE); their keys stop working. */
  deactivate(
    userId: string,
    options?: CallOptions,
  ): Promise<ResponseOf<typeof routes.usersDeactivate>>
}

/** Groups (root). */
export interface GroupsApi {
  create(input: BodyOf<typeof routes.groupsCreate>, options?: CallOptions): Promise<GroupView>
  list(options?: CallOptions): Promise<GroupView[]>
  get(name: string, options?: CallOptions): Promise<GroupView>
  update(
    name: string,
    input: BodyOf<typeof routes.groupsUpdate>,
    options?: CallOptions,
  ): Promise<GroupView>
  delete(name: string, options?: CallOptions): Promise<ResponseOf<typeof routes.groupsDelete>>
}

/** @internal */
export function usersApi(t: Transport): UsersApi {
  return {
    create: (json, o = {}) => t.json(routes.usersCreate, { json, signal: o.signal }),
    list: async (o = {}) => (await t.json(routes.usersList, { signal: o.signal })).items,
    get: (userId, o = {}) =>
      t.json(routes.usersGet, { params: { user_id: userId }, signal: o.signal }),
    update: (userId, json, o = {}) =>
      t.json(routes.usersUpdate, { params: { user_id: userId }, json, signal: o.signal }),
    deactivate: (userId, o = {}) =>
      t.json(routes.usersDeactivate, { params: { user_id: userId }, signal: o.signal }),
  }
}

/** @internal */
export function groupsApi(t: Transport): GroupsApi {
  return {
    create: (json, o = {}) => t.json(routes.groupsCreate, { json, signal: o.signal }),
    list: async (o = {}) => (await t.json(routes.groupsList, { signal: o.signal })).items,
    get: (name, o = {}) => t.json(routes.groupsGet, { params: { name }, signal: o.signal }),
    update: (name, json, o = {}) =>
      t.json(routes.groupsUpdate, { params: { name }, json, signal: o.signal }),
    delete: (name, o = {}) => t.json(routes.groupsDelete, { params: { name }, signal: o.signal }),
  }
}
