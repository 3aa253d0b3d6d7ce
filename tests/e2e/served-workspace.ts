/**
 * The setup most specs share: a scratch directory of the spec's own, a serve-mode server of a
 * workspace in it on the e2e base port plus the spec's own offset, and a page on it
 * (`useServedWorkspace`: set up before the spec's tests, torn down after them). The SemEval team
 * (semeval-team.ts) and the small pool (small-pool.ts) build on it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';

/** A spec's served workspace: filled in before its first test, torn down after its last. */
export interface ServedWorkspace {
  /** The spec's scratch directory (the workspace is in it). */
  dir: string;
  /** The served workspace's file (undefined: the server opens the demo workspace). */
  workspace: string | undefined;
  /** The spec's port: the e2e base port plus its own offset. */
  port: number;
  /** The server (a spec that stops it sets undefined, one that restarts it sets the new one). */
  server: ServeProcess | undefined;
  context: BrowserContext;
  page: Page;
}

export interface ServedWorkspaceOptions {
  /**
   * The workspace's file name in the scratch directory (default `NAME.qpairs`); `null`: no workspace
   * named, the server opens the demo workspace (its config folder in the scratch directory).
   */
  workspace?: string | null;
  /**
   * Run before the server starts, with the directory and workspace filled in (to build the
   * workspace by the CLI, say). A workspace that exists then is served as it is; else a new one is
   * created.
   */
  prepare?: (served: ServedWorkspace) => void | Promise<void>;
  /** The page's browser context options (viewport, colour scheme, downloads); its base URL is the server's. */
  context?: BrowserContextOptions;
}

/** The e2e base port plus `offset`. */
export function e2ePort(offset: number): number {
  return Number(process.env.QPAIRS_E2E_PORT ?? 27613) + offset;
}

/**
 * Registers the spec's setup and teardown: before its tests, a scratch directory `qpairs-e2e-NAME-`,
 * `prepare`, a server of the workspace on the e2e base port + `portOffset` and a page on it (page
 * errors logged); after them, the page's context closed, the server stopped and the directory
 * removed. Returns the state the tests read.
 */
export function useServedWorkspace(name: string, portOffset: number, o: ServedWorkspaceOptions = {}): ServedWorkspace {
  const served = { port: e2ePort(portOffset), server: undefined, workspace: undefined } as ServedWorkspace;
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    served.dir = mkdtempSync(path.join(tmpdir(), `qpairs-e2e-${name}-`));
    const demo = o.workspace === null;
    served.workspace = demo ? undefined : path.join(served.dir, o.workspace ?? `${name}.qpairs`);
    await o.prepare?.(served);
    served.server = demo
      ? await startServe({ port: served.port, configDir: path.join(served.dir, 'config') })
      : await startServe({ workspace: served.workspace, port: served.port, create: !existsSync(served.workspace!) });
    served.context = await browser.newContext({ ...o.context, baseURL: served.server.url });
    served.page = await served.context.newPage();
    served.page.on('pageerror', (e) => console.log(`[page error] ${e.message}`));
  });
  test.afterAll(async () => {
    await served.context?.close();
    await served.server?.stop();
    if (served.dir) rmSync(served.dir, { recursive: true, force: true });
  });
  return served;
}
