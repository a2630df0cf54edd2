/** Vite aliases resolving `@svcdb/*` imports to package sources. */
export declare const workspaceAlias: { find: RegExp; replacement: string }[]
export declare const clusterTests: string
export declare const sharedTimeouts: { testTimeout: number; hookTimeout: number }
