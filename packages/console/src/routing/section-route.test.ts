import { describe, expect, it } from 'vitest'
import { SECTIONS, sectionFromHash, visibleSection } from './section-route'

describe('section route', () => {
  it('gives every hash under #/files to Files, whatever follows', () => {
    for (const hash of ['#/files', '#/files/', '#/files/a/b', '#/files/versions', '#/files/a%20b'])
      expect(sectionFromHash(hash)).toBe('files')
  })

  it('reads the Versions section with or without a trailing path', () => {
    for (const hash of ['#/versions', '#/versions/', '#/versions/snapshots'])
      expect(sectionFromHash(hash)).toBe('versions')
  })

  it('sends an empty or unknown hash home to Files', () => {
    for (const hash of ['', '#', '#/', '#/versionsx', '#/nowhere', '#versions-heading'])
      expect(sectionFromHash(hash)).toBe('files')
  })

  it('links every section to a hash that reads back to it', () => {
    for (const section of SECTIONS) expect(sectionFromHash(section.hash)).toBe(section.id)
  })

  it('reads Identity and System, and shows them to root alone', () => {
    expect(sectionFromHash('#/identity')).toBe('identity')
    expect(sectionFromHash('#/system/tasks')).toBe('system')
    expect(visibleSection('identity', true)).toBe('identity')
    expect(visibleSection('system', false)).toBe('files')
    expect(visibleSection('versions', false)).toBe('versions')
  })
})
