import type { Command, CommandGroup } from '../command'
import { fileCommands } from './file-commands'
import { logCommand } from './head-commands'
import { groupsGroup, keysGroup, usersGroup } from './identity-commands'
import { loginCommand } from './login-command'
import { queryCommand } from './query-command'
import { repairCommand } from './repair-command'
import { cronGroup, eventsGroup, systemCommands, tasksGroup } from './system-commands'
import { forkGroup, snapshotGroup } from './snapshot-commands'
import { versionCommands } from './version-commands'

/** Every command and command group, in the order `svcdb --help` lists them. */
export const COMMANDS: readonly (Command | CommandGroup)[] = [
  loginCommand,
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
  tasksGroup,
  cronGroup,
  ...systemCommands,
  eventsGroup,
]
