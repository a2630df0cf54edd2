import type { CreatedShareLink, Share, ShareLinkView as AuthShareLinkView } from '@svcdb/auth'
import type { routes, ShareView } from '@svcdb/contract'
import type { ResponseOf } from './send-view'

/** A share link as listed, in wire form. */
export type ShareLinkWire = ResponseOf<typeof routes.shareLinksList>['items'][number]

/** A share in wire form: `user_id` for a user's, `group` for a group's. */
export function shareView(share: Share): ShareView {
  return {
    path: share.path,
    ...(share.subject.kind === 'user'
      ? { user_id: share.subject.userId }
      : { group: share.subject.name }),
    permissions: share.permissions,
    created_at: share.createdAt,
  }
}

/** A just-created share link, with its key (shown this once). */
export function createdShareLinkView(
  link: CreatedShareLink,
): ResponseOf<typeof routes.shareLinksCreate> {
  return {
    key_id: link.keyId,
    key: link.key,
    permissions: link.permissions,
    paths: link.paths,
    expires_at: link.expiresAt,
  }
}

/** A share link as listed: never its key. */
export function shareLinkView(link: AuthShareLinkView): ShareLinkWire {
  return {
    key_id: link.keyId,
    paths: link.paths,
    permissions: link.permissions,
    created_at: link.createdAt,
    expires_at: link.expiresAt,
  }
}

/** The answer to revoking a share link. */
export function revokedShareLinkView(revoked: {
  keyId: string
}): ResponseOf<typeof routes.shareLinksDelete> {
  return { revoked: true, key_id: revoked.keyId }
}
