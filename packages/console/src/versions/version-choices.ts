import type { ForkView, SnapshotView } from '@svcdb/contract'
import { shortHash } from './short-hash'

/** One version a diff can start or end at. */
export interface VersionChoice {
  /** What `GET /versions/changes` takes: `HEAD` or a hex hash. */
  value: string
  label: string
}

/**
 * The versions offered to compare: HEAD first, then every snapshot and every fork's latest
 * version, newest first, each version once. Values are hashes (not snapshot names), so a
 * snapshot named like a hash, or `HEAD`, cannot be mistaken for another version.
 */
export function versionChoices(
  snapshots: readonly SnapshotView[],
  forks: readonly ForkView[],
): VersionChoice[] {
  const named = [
    ...snapshots.map((s) => ({ at: s.created_at, value: s.version, label: `snapshot ${s.name}` })),
    ...forks.map((f) => ({ at: f.created_at, value: f.version, label: `fork ${f.name}` })),
  ].sort((a, b) => b.at - a.at)
  // A snapshot and a fork (or two snapshots) often name the same version: offer it once.
  const labels = new Map<string, string[]>()
  for (const n of named) labels.set(n.value, [...(labels.get(n.value) ?? []), n.label])
  return [
    { value: 'HEAD', label: 'HEAD (current)' },
    ...[...labels].map(([value, names]) => ({
      value,
      label: `${names.join(', ')} (${shortHash(value)})`,
    })),
  ]
}
