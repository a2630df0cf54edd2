import { describe, expect, it } from 'vitest'
import { importSummary } from './import-summary'

const result = {
  status: 'imported',
  backup_type: 'export',
  entries_imported: 3,
  chunks_imported: 2,
  files_imported: 2,
  directories_imported: 1,
  deletions_applied: 0,
  version_hash: 'c'.repeat(64),
  head_promoted: true,
}

describe('importSummary', () => {
  it('names the entries, the version and a promoted HEAD', () => {
    expect(importSummary(result)).toBe(
      'Archive imported (3 entries) as version cccccccccccc: it is now HEAD.',
    )
  })

  it('counts a patch’s deletions in the singular when there is one, and an unmoved HEAD', () => {
    expect(
      importSummary({
        ...result,
        backup_type: 'patch',
        entries_imported: 1,
        deletions_applied: 1,
        head_promoted: false,
      }),
    ).toBe(
      'Patch imported (1 entry, 1 deletion) as version cccccccccccc: HEAD is unchanged (promote it from the HEAD log or by hash).',
    )
  })
})
