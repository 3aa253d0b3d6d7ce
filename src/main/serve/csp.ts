/**
 * The app's Content-Security-Policy. The renderer's index.html carries CSP_META as a <meta> tag
 * (Electron loads it from disk, so the tag is the only policy there); serve mode sends CSP_HEADER
 * with every response. A test checks that the built index.html and CSP_META agree.
 *
 * - scripts and styles only from the app's own origin: no inline script, no eval, no inline
 *   <style> (React sets style properties through the CSSOM, which CSP does not restrict);
 * - connect-src 'self' covers the same-origin fetch and WebSocket (ws: of an http: origin) in
 *   serve mode; the Electron app needs no network at all (it talks over IPC);
 * - no plugins, no <base>, no form submission; frame-ancestors only works as a header.
 */
export const CSP_META =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

export const CSP_HEADER = `${CSP_META}; frame-ancestors 'none'`;

/** Headers sent with every serve-mode response (no CORS headers, ever). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CSP_HEADER,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
});
