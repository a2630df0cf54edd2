import { routes } from '@svcdb/contract'
import type { HealthResponse } from '@svcdb/contract'
import { sendView } from '../dto/send-view'
import { handleRoute } from '../routing/route-handler'

/** What health reports: the server version and a probe of the components' state. */
export interface HealthSource {
  version: string
  /** `degraded` when a component needs attention (disk nearly full, corruption seen…). */
  status(): HealthResponse['status'] | Promise<HealthResponse['status']>
}

/** `GET /system/health`: no credential, `{"status", "version"}` exactly (spec). */
export function healthRoute(source: HealthSource) {
  return handleRoute(routes.systemHealth, async (c) => {
    const body: HealthResponse = { status: await source.status(), version: source.version }
    return sendView(c, routes.systemHealth, body, 200)
  })
}
