/**
 * Stack Exchange dumps as the dump site ships them: the shipped cstheory.meta dump packed by the
 * test itself (with the same 7-Zip WebAssembly build the importer uses; no 7-Zip program needed)
 * as `.7z` (solid LZMA2, as on archive.org), `.zip` and `.tar.gz` must import exactly the rows of
 * the unpacked files; a truncated or corrupt archive fails naming archive and member and changes
 * nothing; cancelling mid-archive stops the 7-Zip worker.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataset, unpackedDataset } from '../../../tests/datasets';
import { CancelledError, QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { archiveKind, listArchive, memberPath, siteName, splitMemberPath } from './archive';
import { importFiles } from './index';
import { liveSevenZipWorkers, runSevenZip, sevenZipRuns } from './sevenzip';
import { cleanupTemp, snapshot, tempDir, tempWorkspace } from './test-helpers';

const SE_DIR = path.dirname(dataset('stackexchange-cstheory-meta/Posts.xml'));
const SITE = 'cstheory.meta.stackexchange.com';

let dir: string;
/** The packed dump, by kind. */
const packed: Record<'7z' | 'zip' | 'tar.gz', string> = { '7z': '', zip: '', 'tar.gz': '' };

/** Packs `names` (files in `dir`) into `dir/archive` with 7-Zip (WebAssembly); throws on failure. */
async function pack(archive: string, args: string[], names: string[]): Promise<string> {
  const r = await runSevenZip(dir, ['a', '-bd', ...args, archive, ...names]);
  if (r.code !== 0) throw new Error(`7-Zip could not pack ${archive}: ${r.stderr}`);
  return path.join(dir, archive);
}

beforeAll(async () => {
  dir = tempDir();
  copyFileSync(unpackedDataset('stackexchange-cstheory-meta/Posts.xml'), path.join(dir, 'Posts.xml'));
  copyFileSync(unpackedDataset('stackexchange-cstheory-meta/PostLinks.xml'), path.join(dir, 'PostLinks.xml'));
  writeFileSync(path.join(dir, 'Tags.xml'), '<?xml version="1.0" encoding="utf-8"?>\n<tags>\n</tags>\n');
  const files = ['Posts.xml', 'PostLinks.xml', 'Tags.xml'];
  packed['7z'] = await pack(`${SITE}.7z`, ['-t7z', '-mx=5', '-ms=on'], files);
  packed.zip = await pack(`${SITE}.zip`, ['-tzip'], files);
  const tar = await pack('dump.tar', ['-ttar'], files);
  packed['tar.gz'] = path.join(dir, `${SITE}.tar.gz`);
  writeFileSync(packed['tar.gz'], gzipSync(readFileSync(tar)));
}, 180_000);

afterAll(() => {
  cleanupTemp();
  expect(liveSevenZipWorkers()).toBe(0);
});

describe('archive names', () => {
  it('tells archive kinds and member paths apart', () => {
    expect(['a.7z', 'a.ZIP', 'a.tar', 'a.tar.gz', 'a.tgz', 'a.gz', 'Posts.xml'].map(archiveKind)).toEqual(['7z', 'zip', 'tar', 'tar.gz', 'tar.gz', null, null]);
    expect(splitMemberPath(memberPath(packed['7z'], 'Posts.xml'))).toEqual({ archive: packed['7z'], member: 'Posts.xml' });
    expect(splitMemberPath(path.join(dir, 'missing.7z!/Posts.xml'))).toBeNull();
    expect(splitMemberPath(path.join(dir, 'Posts.xml'))).toBeNull();
  });

  it('reads the site from archive, file and folder names', () => {
    expect(siteName('cardano.stackexchange.com.7z')).toBe('cardano');
    expect(siteName('cardano.stackexchange.com')).toBe('cardano');
    expect(siteName('cstheory.meta.stackexchange.com.7z')).toBe('cstheory.meta');
    expect(siteName('stackoverflow.com-Posts.7z')).toBe('stackoverflow');
    expect(siteName('stackoverflow.com-PostLinks.7z')).toBe('stackoverflow');
    expect(siteName('stackoverflow.com-Posts.xml.gz')).toBe('stackoverflow');
    expect(siteName('meta.stackoverflow.com.7z')).toBe('meta.stackoverflow');
    expect(siteName('ru.stackoverflow.com.7z')).toBe('ru.stackoverflow');
    expect(siteName('superuser.com.zip')).toBe('superuser');
    expect(siteName('mathoverflow.net.tar.gz')).toBe('mathoverflow');
    expect(siteName('Askubuntu.com.7z')).toBe('askubuntu');
    expect(siteName('stackexchange-cstheory-meta')).toBeNull();
    expect(siteName('Posts.xml')).toBeNull();
    expect(siteName('dump.7z')).toBeNull();
  });

  it('lists the members with their unpacked sizes', async () => {
    const posts = readFileSync(path.join(dir, 'Posts.xml')).length;
    for (const a of Object.values(packed)) {
      const entries = await listArchive(a);
      expect(entries.map((e) => e.name).sort(), a).toEqual(['PostLinks.xml', 'Posts.xml', 'Tags.xml']);
      expect(entries.find((e) => e.name === 'Posts.xml')!.size).toBe(posts);
    }
  });
});

describe('importing the shipped dump from its archive', () => {
  let reference: ReturnType<typeof snapshot>;
  let refReport: Awaited<ReturnType<typeof importFiles>>;

  beforeAll(async () => {
    const ws = tempWorkspace();
    refReport = await importFiles(ws, 'stackexchange', [SE_DIR], { source: 'cstheory.meta' });
    reference = snapshot(ws);
    ws.close();
  });

  for (const kind of ['7z', 'zip', 'tar.gz'] as const) {
    it(`.${kind}: the same questions, answers, duplicate pairs and rows as the unpacked files; source = the site`, async () => {
      const ws = tempWorkspace();
      const seen: number[] = [];
      await listArchive(packed[kind]); // listed already: the import's 7-Zip runs are its reads alone
      const runs = sevenZipRuns();
      const r = await importFiles(ws, 'stackexchange', [packed[kind]], { onProgress: (p) => seen.push(p.bytesDone), progressIntervalMs: 0 });
      // Posts.xml and PostLinks.xml in ONE 7-Zip run (a solid block is decoded once); tar needs none.
      expect(sevenZipRuns() - runs).toBe(kind === 'tar.gz' ? 0 : 1);
      expect(r.files).toEqual([memberPath(packed[kind], 'Posts.xml'), memberPath(packed[kind], 'PostLinks.xml')]);
      expect(r.counts).toEqual(refReport.counts);
      expect(r.counts).toMatchObject({ questionsInserted: 589, duplicatePairs: 13, answersInserted: 1280 });
      expect(r.skipped).toEqual(refReport.skipped);
      expect(ws.stats()).toMatchObject({ questions: 589, answers: 1280, duplicatePairs: 13, sources: { 'cstheory.meta': 589 } });
      // Every table but the imports audit (which names the files) holds the same rows.
      expect(snapshot(ws).dataChecksum).toBe(reference.dataChecksum);
      // Progress: unpacked bytes of the members, rising to their sum.
      const total = (await listArchive(packed[kind])).filter((e) => e.name !== 'Tags.xml').reduce((a, e) => a + e.size, 0);
      expect(seen.length).toBeGreaterThan(3);
      expect(seen.every((v, i) => i === 0 || v >= seen[i - 1]!)).toBe(true);
      expect(seen[seen.length - 1]).toBe(total);
      ws.close();
    });
  }

  it('keeps an explicit --source, and reads one member named by its member path', async () => {
    const ws = tempWorkspace();
    const r = await importFiles(ws, 'stackexchange', [packed['7z']], { source: 'mine' });
    expect(ws.stats()).toMatchObject({ sources: { mine: 589 } });
    expect(r.counts.questionsInserted).toBe(589);
    const links = await importFiles(ws, 'stackexchange', [memberPath(packed.zip, 'PostLinks.xml')], { source: 'mine' });
    expect(links.counts).toMatchObject({ duplicatePairsKnown: 13 });
    ws.close();
  });

  it("Stack Overflow's per-file archives (stackoverflow.com-Posts.7z + stackoverflow.com-PostLinks.7z)", async () => {
    const posts = await pack('stackoverflow.com-Posts.7z', ['-t7z', '-mx=1'], ['Posts.xml']);
    const links = await pack('stackoverflow.com-PostLinks.7z', ['-t7z', '-mx=1'], ['PostLinks.xml']);
    const ws = tempWorkspace();
    const r = await importFiles(ws, 'stackexchange', [links, posts]);
    expect(r.files).toEqual([memberPath(posts, 'Posts.xml'), memberPath(links, 'PostLinks.xml')]);
    expect(r.counts).toEqual(refReport.counts);
    expect(ws.stats()).toMatchObject({ questions: 589, duplicatePairs: 13, sources: { stackoverflow: 589 } });
    ws.close();
  });

  it('refuses files of two different sites without --source', async () => {
    const ws = tempWorkspace();
    const other = path.join(dir, 'cardano.stackexchange.com.7z');
    copyFileSync(packed['7z'], other);
    const e = await importFiles(ws, 'stackexchange', [packed['7z'], other]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(QPairsError);
    expect((e as Error).message).toMatch(/different sites: cstheory\.meta .*cardano/);
    expect(ws.stats().questions).toBe(0);
    ws.close();
  });
});

describe('bad archives fail naming archive and member, and change nothing', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = tempWorkspace();
    await importFiles(ws, 'stackexchange', [path.join(SE_DIR, 'Posts.xml.gz')], { source: 'seed' });
  });
  afterAll(() => ws.close());

  async function failsCleanly(files: string[], message: RegExp): Promise<QPairsError> {
    const before = snapshot(ws);
    // The seed's source: the archives' good rows are the workspace's own (unchanged) before the failure.
    const e = await importFiles(ws, 'stackexchange', files, { source: 'seed' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(QPairsError);
    expect((e as Error).message).toMatch(message);
    expect(snapshot(ws)).toEqual(before);
    expect(ws.db.inTransaction).toBe(false);
    expect(liveSevenZipWorkers()).toBe(0);
    return e as QPairsError;
  }

  it('a truncated .7z', async () => {
    const cut = path.join(dir, 'truncated.stackexchange.com.7z');
    const bytes = readFileSync(packed['7z']);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const e = await failsCleanly([cut], /cannot open the 7z archive: .*Unexpected end of archive/);
    expect(e.message.startsWith(`${cut}: `)).toBe(true);
  });

  it('a .7z whose packed data is corrupt: the member it breaks is named', async () => {
    const bad = path.join(dir, 'corrupt.stackexchange.com.7z');
    const bytes = Buffer.from(readFileSync(packed['7z']));
    // Inside the packed stream (the headers are at the end of a .7z): flip some bytes of Posts.xml's part.
    for (let i = 0; i < 16; i++) bytes[Math.floor(bytes.length * 0.7) + i] ^= 0x5a;
    writeFileSync(bad, bytes);
    const member = memberPath(bad, 'Posts.xml');
    const e = await failsCleanly([bad], new RegExp(`cannot unpack Posts\\.xml from the archive .*corrupt\\.stackexchange\\.com\\.7z: .*(Data Error|CRC Failed)`));
    expect(e.message.startsWith(`${member}: `), e.message).toBe(true);
    expect(e.details.file).toBe(member);
  });

  it('a truncated .tar.gz and a corrupt .zip', async () => {
    const cut = path.join(dir, 'cut.tar.gz');
    const bytes = readFileSync(packed['tar.gz']);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await failsCleanly([cut], /cut\.tar\.gz: cannot read the tar\.gz archive: corrupt or truncated gzip data/);
    const zip = path.join(dir, 'corrupt.zip');
    const z = Buffer.from(readFileSync(packed.zip));
    for (let i = 0; i < 16; i++) z[2000 + i] ^= 0x5a;
    writeFileSync(zip, z);
    await failsCleanly([zip], /corrupt\.zip!\/P\w+\.xml: cannot unpack P\w+\.xml from the archive .*corrupt\.zip: /);
  });

  it('a truncated .zip says what happened, not a bare number (7-Zip\'s WebAssembly build throws its C++ exception as one)', async () => {
    const cut = path.join(dir, 'cut.stackexchange.com.zip');
    const bytes = readFileSync(packed.zip);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 4)));
    const e = await failsCleanly([cut], /cut\.stackexchange\.com\.zip: cannot open the zip archive: /);
    expect(e.message).not.toMatch(/archive: \d+$/);
    expect(e.message).toMatch(/cannot open the zip archive: an internal error stopped 7-Zip \(the archive is probably truncated or corrupt\)$/);
  });

  it('malformed XML inside a sound archive is reported as such, with the member and line', async () => {
    const sub = path.join(dir, 'malformed');
    mkdirSync(sub);
    const posts = readFileSync(path.join(dir, 'Posts.xml'), 'utf8').split('\n');
    posts[5] = posts[5]!.replace('<row ', '<row <');
    writeFileSync(path.join(sub, 'Posts.xml'), posts.join('\n'));
    copyFileSync(path.join(dir, 'PostLinks.xml'), path.join(sub, 'PostLinks.xml'));
    const a = await pack('malformed/malformed.stackexchange.com.7z', ['-t7z', '-mx=1'], ['malformed/Posts.xml', 'malformed/PostLinks.xml']);
    const e = await failsCleanly([a], /malformed XML/);
    expect(e.message.startsWith(`${memberPath(a, 'malformed/Posts.xml')}, line 6: malformed XML`), e.message).toBe(true);
  });

  it('not an archive, and an archive without the dump', async () => {
    const fake = path.join(dir, 'fake.7z');
    writeFileSync(fake, 'not an archive\n');
    await failsCleanly([fake], /fake\.7z: cannot open the 7z archive: .*(Is not archive|Cannot open the file as)/);
    const other = await pack('other.7z', ['-t7z'], ['Tags.xml']);
    await failsCleanly([other], /other\.7z: the archive holds neither Posts\.xml nor PostLinks\.xml \(it holds Tags\.xml\)/);
  });
});

describe('cancel and memory', () => {
  it('cancelling mid-archive stops the worker and changes nothing', async () => {
    // A Posts.xml of ~24 MB: more than the worker may have in flight (4 MiB), so it is waiting when cancelled.
    const rows: string[] = ['<?xml version="1.0" encoding="utf-8"?>', '<posts>'];
    for (let i = 1; i <= 120_000; i++) rows.push(`  <row Id="${i}" PostTypeId="1" Title="Question ${i}" Body="&lt;p&gt;Body of question ${i} with some words ${i * 7}&lt;/p&gt;" Tags="&lt;t${i % 50}&gt;" />`);
    rows.push('</posts>', '');
    mkdirSync(path.join(dir, 'big'));
    writeFileSync(path.join(dir, 'big', 'Posts.xml'), rows.join('\n'));
    copyFileSync(path.join(dir, 'PostLinks.xml'), path.join(dir, 'big', 'PostLinks.xml'));
    // Posts.xml alone (one member, streamed on its own) and with PostLinks.xml (one shared run, PostLinks.xml spooled first).
    const one = await pack('one.stackexchange.com.7z', ['-t7z', '-mx=1'], ['big/Posts.xml']);
    const two = await pack('two.stackexchange.com.7z', ['-t7z', '-mx=1'], ['big/Posts.xml', 'big/PostLinks.xml']);
    const spools = (): string[] => readdirSync(os.tmpdir()).filter((n) => n.startsWith('qpairs-archive-'));
    const spoolsBefore = spools();
    for (const big of [one, two]) await cancelMidway(big);
    expect(spools()).toEqual(spoolsBefore);
  }, 120_000);

  async function cancelMidway(big: string): Promise<void> {
    const ws = tempWorkspace();
    const before = snapshot(ws);
    const ac = new AbortController();
    let peakWorkers = 0;
    const e = await importFiles(ws, 'stackexchange', [big], {
      signal: ac.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        peakWorkers = Math.max(peakWorkers, liveSevenZipWorkers());
        if (p.records > 2000) ac.abort();
      },
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CancelledError);
    expect(peakWorkers).toBe(1);
    expect(liveSevenZipWorkers()).toBe(0);
    expect(snapshot(ws)).toEqual(before);
    ws.close();
  }
});
