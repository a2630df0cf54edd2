import type { EntryView } from '@svcdb/contract'
import type { Entry } from '@svcdb/engine'

/** An engine entry in wire form (DESIGN §7.1). */
export function entryView(entry: Entry, effectivePermissions?: string): EntryView {
  const view: EntryView = {
    path: entry.path,
    name: entry.name,
    entry_type: entry.entryType,
    size: entry.size,
    hash: entry.hash,
    content_type: entry.contentType,
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
  }
  if (entry.target !== undefined) view.target = entry.target
  if (effectivePermissions !== undefined) view.effective_permissions = effectivePermissions
  return view
}
