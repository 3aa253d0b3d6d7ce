import { describe, expect, it, vi } from 'vitest';
import { baseName, downloadUrl, offerDownload, type DownloadEnv } from './download';

function fakeEnv(): { env: DownloadEnv; clicks: Array<{ href: string; download: string }> } {
  const clicks: Array<{ href: string; download: string }> = [];
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
            clicks.push({ href: a.href, download: a.download });
          },
          remove: vi.fn(),
        };
        return a;
      }) as unknown as Document['createElement'],
    },
  };
  return { env, clicks };
}

describe('downloads', () => {
  it('names files by their base name', () => {
    expect(baseName('/tmp/x/team.qrels')).toBe('team.qrels');
    expect(baseName('C:\\out\\team.csv')).toBe('team.csv');
  });

  it('offers a download of the server through a temporary link to its id, under its file name', () => {
    const { env, clicks } = fakeEnv();
    offerDownload({ id: 'a'.repeat(32), name: 'team.qrels' }, env);
    offerDownload({ id: 'b-_'.repeat(10) + 'cc', name: 'out/team.qrels.datasheet.md' }, env);
    expect(clicks).toEqual([
      { href: `/api/download/${'a'.repeat(32)}`, download: 'team.qrels' },
      { href: `/api/download/${'b-_'.repeat(10)}cc`, download: 'team.qrels.datasheet.md' },
    ]);
    expect(downloadUrl('x/y')).toBe('/api/download/x%2Fy');
  });
});
