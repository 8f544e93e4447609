// Where the tab is: the session in its address (`#session=ID`, so a link or a reload opens it)
// and the session this tab owned (kept across reloads of this tab only, so a reload takes it
// back rather than asking to take it over).

const OWNED = "tether-owned-session";

/** The session this tab had open (not read-only) before a reload; null if none. */
export function ownedBefore() {
  try {
    return sessionStorage.getItem(OWNED);
  } catch {
    return null;
  }
}

/** Remember the session this tab owns now (null: none). */
export function setOwned(sessionId) {
  try {
    if (sessionId) sessionStorage.setItem(OWNED, sessionId);
    else sessionStorage.removeItem(OWNED);
  } catch {
    // storage refused (a private window's quota): a reload then asks to take over
  }
}

/** The session the address names; null if none. */
export function hashSession() {
  return location.hash.startsWith("#session=") ? decodeURIComponent(location.hash.slice("#session=".length)) : null;
}

/** Name the session shown in the address (null: none), without a new history entry. */
export function setHash(sessionId) {
  const hash = sessionId ? `#session=${encodeURIComponent(sessionId)}` : "";
  history.replaceState(null, "", `${location.pathname}${location.search}${hash}`);
}
