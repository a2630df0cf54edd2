import type { ImportResultView } from '@svcdb/contract'
import { shortHash } from './short-hash'

/** One sentence on what an import did, for the screen's status line. */
export function importSummary(result: ImportResultView): string {
  const kind = result.backup_type === 'patch' ? 'Patch' : 'Archive'
  const entries = `${result.entries_imported} ${result.entries_imported === 1 ? 'entry' : 'entries'}`
  const deletions =
    result.deletions_applied === 0
      ? ''
      : `, ${result.deletions_applied} ${result.deletions_applied === 1 ? 'deletion' : 'deletions'}`
  const head = result.head_promoted
    ? 'it is now HEAD'
    : 'HEAD is unchanged (promote it from the HEAD log or by hash)'
  return `${kind} imported (${entries}${deletions}) as version ${shortHash(result.version_hash)}: ${head}.`
}
