import type { Client } from '@svcdb/client'

/** A share link as listed (the contract exports no type of its own for it). */
export type ShareLinkView = Awaited<ReturnType<Client['files']['shares']['listLinks']>>[number]
