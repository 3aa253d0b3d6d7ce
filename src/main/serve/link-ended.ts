/**
 * The page a browser gets when it loads the app with a token the server refuses (revoked, replaced
 * by a newer link, or never valid): a short, readable HTML page saying the link no longer works and
 * to ask the workspace's owner for a new one — instead of the API's JSON error (without any token:
 * a page saying to open one's personal link). API requests keep their JSON 401 (the app reads it
 * and shows "access ended").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { presentedToken } from './auth';
import { SECURITY_HEADERS } from './csp';

/** Whether a request is a page load (anything but /api/…, by GET or HEAD): it gets HTML, not JSON. */
export function isPageLoad(req: IncomingMessage): boolean {
  const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  const api = pathname === '/api' || pathname.startsWith('/api/');
  return !api && (req.method === 'GET' || req.method === 'HEAD');
}

function page(title: string, paragraphs: string[]): string {
  // No inline style (the CSP allows none) and no script: plain HTML, readable as it is.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>QPairs — ${title.toLowerCase()}</title>
</head>
<body>
<main>
<h1>${title}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
</main>
</body>
</html>
`;
}

/** A token was presented and refused: revoked, replaced by a newer link, or never valid. */
export const LINK_ENDED_HTML = page('This link no longer works', [
  'The QPairs link you opened is not valid any more: the workspace’s owner revoked it, or made a newer link for you.',
  'Ask the workspace’s owner for a new link (in QPairs: Pools → Team access → New link), then open that one. Labels you saved before are kept.',
]);

/** LINK_ENDED_HTML on a loopback server without required tokens, where a caller without a token is the owner. */
export const LINK_ENDED_LOCAL_HTML = page('This link no longer works', [
  'The QPairs link you opened is not valid any more: the workspace’s owner revoked it, or made a newer link for you.',
  'On this machine, <a href="/?signout">open QPairs without the link</a> to use it as the workspace’s owner; anyone else: ask the owner for a new link.',
]);

/** No token at all. */
export const LINK_NEEDED_HTML = page('Open your personal link', [
  'This QPairs server lets in only the people its owner invited, each with a personal link (it ends in ?token=…).',
  'Open the link you were given; if you have none, ask the workspace’s owner for one.',
]);

/** After `/?signout` on a server that requires links: the browser forgot the link. */
export const SIGNED_OUT_HTML = page('Signed out', [
  'This browser no longer holds your QPairs link: the next person at this computer cannot label as you.',
  'To come back, open your personal link again (it ends in ?token=…). Labels you saved are kept.',
]);

/** Answers 200 with SIGNED_OUT_HTML and clears the link's cookie (`clearCookie`); its body left out for HEAD. */
export function sendSignedOut(req: IncomingMessage, res: ServerResponse, clearCookie: string): void {
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(SIGNED_OUT_HTML)),
    'Cache-Control': 'no-store',
    'Set-Cookie': clearCookie,
  });
  res.end(req.method === 'HEAD' ? undefined : SIGNED_OUT_HTML);
}

/** Answers 401 with the page that fits (its body left out for HEAD); `ownerWithoutToken`: a loopback server without required tokens. */
export function sendLinkEnded(req: IncomingMessage, res: ServerResponse, ownerWithoutToken = false): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const html = presentedToken(req, url, true) ? (ownerWithoutToken ? LINK_ENDED_LOCAL_HTML : LINK_ENDED_HTML) : LINK_NEEDED_HTML;
  res.writeHead(401, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(html)),
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : html);
}
