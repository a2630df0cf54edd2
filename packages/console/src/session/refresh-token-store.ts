/** The part of the Web Storage API the console uses (`sessionStorage` in the browser). */
export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/** Where the refresh token is kept between page loads of one tab. */
export interface RefreshTokenStore {
  load(): string | undefined
  save(refreshToken: string): void
  clear(): void
}

/** The storage key of the refresh token. */
export const REFRESH_TOKEN_KEY = 'svcdb.console.refresh-token'

/**
 * Keeps the refresh token in `storage` under {@link REFRESH_TOKEN_KEY}. Given
 * `sessionStorage`, it is gone when the tab closes, as issue 18 asks; the access token is
 * never stored.
 */
export function createRefreshTokenStore(storage: TokenStorage): RefreshTokenStore {
  return {
    load: () => storage.getItem(REFRESH_TOKEN_KEY) ?? undefined,
    save: (refreshToken) => storage.setItem(REFRESH_TOKEN_KEY, refreshToken),
    clear: () => storage.removeItem(REFRESH_TOKEN_KEY),
  }
}
