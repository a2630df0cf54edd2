import type { QueryOptions, QueryResult } from '../read/query-types'
import { TreeView } from '../read/tree-view'
import { assertVersionRoot } from './version-roots'
import type { ViewContext } from '../read/view-context'
import type { VersionRootServices } from './version-roots'

/** What building a checked view of a root needs. */
export interface RootViewServices extends VersionRootServices {
  readonly view: ViewContext
}

/**
 * A view of a version named by hash: every read first checks, once, that the hash is a
 * version's root (`NOT_FOUND` otherwise), so a directory's hash cannot pose as a version.
 */
export class RootCheckedView extends TreeView {
  private checked: Promise<void> | undefined

  constructor(
    private readonly core: RootViewServices,
    root: Uint8Array,
  ) {
    super(core.view, root)
  }

  private check(): Promise<void> {
    if (this.checked === undefined) {
      this.checked = assertVersionRoot(this.core, this.root)
      // Surfaced to every read that awaits it; never an unhandled rejection meanwhile.
      this.checked.catch(() => undefined)
    }
    return this.checked
  }

  override async query(options: QueryOptions): Promise<QueryResult> {
    await this.check()
    return super.query(options)
  }

  protected override async resolve(path: string, follow: boolean) {
    await this.check()
    return super.resolve(path, follow)
  }
}
