/** Routes of /system/gc, /system/tasks and /system/cron. */
export const taskRoutes = {} as const
