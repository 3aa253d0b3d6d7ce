import { describe, expect, it, vi } from 'vitest';
import { baseName, downloadAll, mimeFor, type DownloadEnv } from './download';

function fakeEnv(): { env: DownloadEnv; clicks: Array<{ href: string; download: string; text: Promise<string> }>; revoked: string[] } {
  const clicks: Array<{ href: string; download: string; text: Promise<string> }> = [];
  const revoked: string[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  const env: DownloadEnv = {
    document: {
      body: { appendChild: vi.fn() } as unknown as HTMLElement,
      createElement: (() => {
        const a = {
          href: '',
          download: '',
          rel: '',
          style: {} as Record<string, string>,
          click() {
            clicks.push({ href: a.href, download: a.download, text: blobs.get(a.href)!.text() });
          },
          remove: vi.fn(),
        };
        return a;
      }) as unknown as Document['createElement'],
    },
    URL: {
      createObjectURL: (b: Blob) => {
        const u = `blob:test/${++n}`;
        blobs.set(u, b);
        return u;
      },
      revokeObjectURL: (u: string) => void revoked.push(u),
    },
    setTimeout: (fn: () => void) => {
      fn();
      return 0;
    },
  };
  return { env, clicks, revoked };
}

describe('downloads', () => {
  it('names files by their base name and types them by extension', () => {
    expect(baseName('/tmp/x/team.qrels')).toBe('team.qrels');
    expect(baseName('C:\\out\\team.csv')).toBe('team.csv');
    expect(mimeFor('team.qrels.datasheet.md')).toMatch(/^text\/markdown/);
    expect(mimeFor('team.csv')).toMatch(/^text\/csv/);
    expect(mimeFor('team.qrels')).toMatch(/^text\/plain/);
  });

  it('offers every file through a temporary link with its content, then revokes the URLs', async () => {
    const { env, clicks, revoked } = fakeEnv();
    await downloadAll(
      [
        { name: 'team.qrels', content: 'q1 0 c1 1\n' },
        { name: 'team.qrels.datasheet.md', content: '# Datasheet\n' },
      ],
      env,
      0,
    );
    expect(clicks.map((c) => c.download)).toEqual(['team.qrels', 'team.qrels.datasheet.md']);
    expect(await clicks[0]!.text).toBe('q1 0 c1 1\n');
    expect(await clicks[1]!.text).toBe('# Datasheet\n');
    expect(revoked).toEqual(clicks.map((c) => c.href));
  });
});
