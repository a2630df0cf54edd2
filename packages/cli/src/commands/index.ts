import type { Command, CommandGroup } from '../command'
import { fileCommands } from './file-commands'
import { logCommand } from './head-commands'
import { emailGroup } from './email-commands'
import { groupsGroup } from './groups-commands'
import { keysGroup } from './keys-commands'
import { loginCommand } from './login-command'
import { queryCommand } from './query-command'
import { repairCommand } from './repair-command'
import { peersCommand } from './peers-command'
import { linksGroup, sharesGroup } from './share-commands'
import { cronGroup, eventsGroup, systemCommands, tasksGroup } from './system-commands'
import { forkGroup, snapshotGroup } from './snapshot-commands'
import { usersGroup } from './users-commands'
import { versionCommands } from './version-commands'
import { whoamiCommand } from './whoami-command'

/** Every command and command group, in the order `svcdb --help` lists them. */
export const COMMANDS: readonly (Command | CommandGroup)[] = [
  loginCommand,
  whoamiCommand,
  ...fileCommands,
  queryCommand,
  snapshotGroup,
  forkGroup,
  ...versionCommands,
  logCommand,
  repairCommand,
  usersGroup,
  groupsGroup,
  keysGroup,
  sharesGroup,
  linksGroup,
  emailGroup,
  tasksGroup,
  cronGroup,
  ...systemCommands,
  peersCommand,
  eventsGroup,
]
