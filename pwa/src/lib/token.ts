// The signed-in user's token: stored in localStorage under 'token' (docs/product/09-limits.md).

export const TOKEN_KEY = 'token';

export interface TokenClaims {
  user_id: number;
  role: string;
  company_id?: number | null;
  exp?: number;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled (some private modes)
  }
}

export function getToken(): string | null {
  return storage()?.getItem(TOKEN_KEY) ?? null;
}

const tokenListeners = new Set<() => void>();

/** Calls `listener` after this tab sets or clears the token (other tabs' changes come as 'storage' events). */
export function onTokenChange(listener: () => void): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

function tokenChanged(): void {
  for (const l of [...tokenListeners]) l();
}

export function setToken(token: string): void {
  storage()?.setItem(TOKEN_KEY, token);
  tokenChanged();
}

export function clearToken(): void {
  storage()?.removeItem(TOKEN_KEY);
  tokenChanged();
}

/** Reads the JWT payload without verifying it (the server verifies; this only routes the UI). */
export function decodeClaims(token: string | null): TokenClaims | null {
  if (!token) return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const b64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
    const claims = JSON.parse(json) as Partial<TokenClaims>;
    if (typeof claims.user_id !== 'number' || typeof claims.role !== 'string') return null;
    return claims as TokenClaims;
  } catch {
    return null;
  }
}
