/** Routes of /system/email-config and /system/email-test. */
export const emailRoutes = {} as const
