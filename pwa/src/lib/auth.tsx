// Who is signed in (docs/product/04-states.md, "Authentication"): the token in localStorage 'token',
// the user loaded from GET /me, sign-in and sign-out.
//
// The last loaded user is cached so the installed app opens at once (and offline); GET /me
// then refreshes it. A 401 or a refused /me signs out; a network error never does, so staff
// working offline stay signed in. Signing out closes the offline session (app/root.tsx): the cached
// company data is dropped, unsent offline changes wait in IndexedDB until the same user signs in
// again (docs/decisions/08-offline-pwa.md).
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { setUnauthorizedHandler } from './api-client.ts';
import { client, rpc } from './rpc.ts';
import { isApiError } from './api-errors.ts';
import { clearToken, decodeClaims, getToken, setToken } from './token.ts';
import type { Role, User } from './api-types.ts';

const USER_CACHE_KEY = 'bookwell.user';

/** Location state of /login: the page to return to after signing in (set by the route guard). */
const LOGIN_NOTICE_KEY = 'bookwell.login-notice';

/**
 * A line for the sign-in page to say once, when signing out took the user there (their account was
 * erased). Kept in this tab's sessionStorage: router state would be replaced by the sign-in redirect
 * that signing out itself causes.
 */
export function leaveLoginNotice(text: string): void {
  try {
    sessionStorage.setItem(LOGIN_NOTICE_KEY, text);
  } catch {
    // Storage refused (private mode): the page just says nothing.
  }
}

/** The notice left for the sign-in page (it removes it once shown, with clearLoginNotice). */
export function readLoginNotice(): string | null {
  try {
    return sessionStorage.getItem(LOGIN_NOTICE_KEY);
  } catch {
    return null;
  }
}

export function clearLoginNotice(): void {
  try {
    sessionStorage.removeItem(LOGIN_NOTICE_KEY);
  } catch {
    // Nothing was stored then either.
  }
}

export interface LoginRedirectState {
  from?: { pathname: string; search?: string; hash?: string };
}

export interface AuthState {
  isAuthenticated: boolean;
  isLoading: boolean;
  user: User | null;
}

export interface AuthContextValue extends AuthState {
  /** Stores the token from login/register, loads the user and returns it. */
  signIn(token: string): Promise<User>;
  /** Removes the token and the cached user (and cached server data); the offline outbox is kept. */
  signOut(): void;
  /** Reloads GET /me (after a profile change, say). */
  refreshUser(): Promise<void>;
  /** Replaces the stored token (change-password answers a fresh one) without signing out. */
  replaceToken(token: string): void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

function readCachedUser(token: string): User | null {
  try {
    const claims = decodeClaims(token);
    const raw = localStorage.getItem(USER_CACHE_KEY);
    if (!raw || !claims) return null;
    const user = JSON.parse(raw) as User;
    return user.id === claims.user_id ? user : null;
  } catch {
    return null;
  }
}

function writeCachedUser(user: User | null): void {
  try {
    if (user) localStorage.setItem(USER_CACHE_KEY, JSON.stringify(user));
    else localStorage.removeItem(USER_CACHE_KEY);
  } catch {
    /* storage unavailable: the cache is only a speed-up */
  }
}

/** The user from GET /me, with the token's role filling in if the response lacks one. */
async function fetchMe(token: string): Promise<User> {
  const me = await rpc(client.me.$get());
  const claims = decodeClaims(token);
  return { ...me, role: me.role ?? (claims?.role as Role) };
}

/** When /me cannot be reached, the token still says who this is and what they may open. */
function userFromClaims(token: string): User | null {
  const claims = decodeClaims(token);
  if (!claims) return null;
  return {
    id: claims.user_id,
    name: '',
    email: '',
    phone: null,
    role: claims.role as Role,
    company_id: claims.company_id ?? null,
    created_at: '',
    has_password: true,
  };
}

function initialState(): AuthState {
  const token = getToken();
  if (!token) return { isAuthenticated: false, isLoading: false, user: null };
  const cached = readCachedUser(token);
  return cached ? { isAuthenticated: true, isLoading: false, user: cached } : { isAuthenticated: false, isLoading: true, user: null };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(initialState);
  const queryClient = useQueryClient();
  const loadSeq = useRef(0);

  const signOut = useCallback(() => {
    loadSeq.current += 1; // results of loads still in flight are ignored
    clearToken();
    writeCachedUser(null);
    queryClient.clear();
    setState({ isAuthenticated: false, isLoading: false, user: null });
  }, [queryClient]);

  const load = useCallback(
    async (token: string): Promise<User> => {
      const seq = ++loadSeq.current;
      try {
        const user = await fetchMe(token);
        if (seq === loadSeq.current && getToken() === token) {
          writeCachedUser(user);
          setState({ isAuthenticated: true, isLoading: false, user });
        }
        return user;
      } catch (e) {
        // Only the server's refusal (a 4xx answer) signs out. No answer, a 5xx, or a request the
        // browser cut short because the page is reloading (an AbortError) keeps the session:
        // signing out there cleared the token just before the reload read it.
        const refused = isApiError(e) && e.kind === 'http' && (e.status ?? 0) < 500;
        if (!refused) {
          const fallback = readCachedUser(token) ?? userFromClaims(token);
          if (fallback) {
            if (seq === loadSeq.current) setState({ isAuthenticated: true, isLoading: false, user: fallback });
            return fallback;
          }
        }
        if (seq === loadSeq.current && getToken() === token) signOut();
        throw e;
      }
    },
    [signOut],
  );

  // At start: refresh the user behind a stored token (docs/product/04-states.md: failure logs out).
  useEffect(() => {
    const token = getToken();
    if (token) load(token).catch(() => undefined);
  }, [load]);

  // Any 401 signs out, but only the session that made the request: a late 401 for an old
  // token must not sign out the user who has just signed in again.
  useEffect(() => {
    setUnauthorizedHandler((tokenUsed) => {
      if (tokenUsed && tokenUsed === getToken()) signOut();
    });
    return () => setUnauthorizedHandler(() => undefined);
  }, [signOut]);

  // Another tab signed in or out.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== 'token' && e.key !== null) return;
      const token = getToken();
      if (!token) setState({ isAuthenticated: false, isLoading: false, user: null });
      else load(token).catch(() => undefined);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [load]);

  const signIn = useCallback(
    async (token: string) => {
      setToken(token);
      queryClient.clear();
      return load(token);
    },
    [load, queryClient],
  );

  const refreshUser = useCallback(async () => {
    const token = getToken();
    if (token) await load(token);
  }, [load]);

  const replaceToken = useCallback((token: string) => setToken(token), []);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, signIn, signOut, refreshUser, replaceToken }),
    [state, signIn, signOut, refreshUser, replaceToken],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
