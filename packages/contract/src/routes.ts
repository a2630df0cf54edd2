import { authRoutes } from './routes/auth-routes'
import { emailRoutes } from './routes/email-routes'
import { fileRoutes } from './routes/file-routes'
import { groupRoutes } from './routes/group-routes'
import { namedVersionRoutes } from './routes/named-version-routes'
import { shareRoutes } from './routes/share-routes'
import { systemRoutes } from './routes/system-routes'
import { taskRoutes } from './routes/task-routes'
import { uploadRoutes } from './routes/upload-routes'
import { userRoutes } from './routes/user-routes'
import { versionRoutes } from './routes/version-routes'

/**
 * The route table of the API. Every route the server mounts is declared here with its auth
 * level and schemas; the client is typed from the same entries. Each domain keeps its routes
 * in its own file under `routes/`.
 */
export const routes = {
  ...systemRoutes,
  ...authRoutes,
  ...userRoutes,
  ...groupRoutes,
  ...emailRoutes,
  ...taskRoutes,
  ...versionRoutes,
  ...fileRoutes,
  ...namedVersionRoutes,
  ...shareRoutes,
  ...uploadRoutes,
} as const

/** Names of the entries of {@link routes}. */
export type RouteName = keyof typeof routes
