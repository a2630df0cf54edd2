import type { RuleView } from '@svcdb/contract'

/** What the key form asks for: root's `POST /auth/keys` for another user. */
export interface KeyRequest {
  user_id: string
  label?: string
  expires_in_days: number
  rules: RuleView[]
}
