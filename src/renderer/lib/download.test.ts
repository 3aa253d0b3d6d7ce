import { describe, expect, it, vi } from 'vitest';
import { baseName, downloadAll, downloadUrl, type DownloadEnv } from './download';

function fakeEnv(): { env: DownloadEnv; clicks: Array<{ href: string; download: string }>; pauses: number[] } {
  const clicks: Array<{ href: string; download: string }> = [];
  const pauses: number[] = [];
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
    setTimeout: (fn: () => void, ms: number) => {
      pauses.push(ms);
      fn();
      return 0;
    },
  };
  return { env, clicks, pauses };
}

describe('downloads', () => {
  it('names files by their base name', () => {
    expect(baseName('/tmp/x/team.qrels')).toBe('team.qrels');
    expect(baseName('C:\\out\\team.csv')).toBe('team.csv');
  });

  it('offers every download of the server through a temporary link to its id, one after the other', async () => {
    const { env, clicks, pauses } = fakeEnv();
    await downloadAll(
      [
        { id: 'a'.repeat(32), name: 'team.qrels' },
        { id: 'b-_'.repeat(10) + 'cc', name: 'team.qrels.datasheet.md' },
      ],
      env,
      250,
    );
    expect(clicks).toEqual([
      { href: `/api/download/${'a'.repeat(32)}`, download: 'team.qrels' },
      { href: `/api/download/${'b-_'.repeat(10)}cc`, download: 'team.qrels.datasheet.md' },
    ]);
    expect(pauses).toEqual([250]);
    expect(downloadUrl('x/y')).toBe('/api/download/x%2Fy');
  });
});
