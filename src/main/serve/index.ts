/** Serve mode's public surface (the CLI's `qpairs serve`, the engine's upload resolution). */
export { startServer, DEFAULT_PORT, type RunningServer, type ServeEngine, type ServerOptions } from './server';
export { serveWorkspace, type ServeWorkspaceOptions } from './cli-serve';
export { uploadPath, uploadName, clearUploads } from './uploads';
export { parseTokenSpecs, isLoopbackHost, generateToken, type TokenMap } from './auth';
export { CSP_META, CSP_HEADER, SECURITY_HEADERS } from './csp';
