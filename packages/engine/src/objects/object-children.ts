import type { TreeObject } from './tree-objects'

/** What an object references: objects (pages, files, lists) and chunks (`isObject: false`). */
export function* objectChildren(
  object: TreeObject,
): Generator<{ hash: Uint8Array; isObject: boolean }> {
  switch (object.type) {
    case 'leaf':
      for (const e of object.entries) yield { hash: e.hash, isObject: true }
      return
    case 'node':
      for (const item of object.items) yield { hash: item.hash, isObject: true }
      return
    case 'file':
      for (const c of object.chunks ?? []) yield { hash: c.hash, isObject: false }
      for (const l of object.lists ?? []) yield { hash: l.hash, isObject: true }
      return
    case 'list':
      for (const c of object.chunks) yield { hash: c.hash, isObject: false }
      return
    case 'link':
      return
  }
}
