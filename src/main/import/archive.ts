/**
 * Archives as the Stack Exchange dump site ships them, read member by member without unpacking
 * them by hand: `.7z` and `.zip` through 7-Zip compiled to WebAssembly (./sevenzip.ts: a worker,
 * streamed, bounded memory, no 7-Zip program needed), `.tar`, `.tar.gz` and `.tgz` through a small
 * tar reader over zlib's gunzip (./tar.ts). (A `.gz` of one file is read by ./reader.ts directly.)
 *
 * A member is named by a *member path*: the archive's path, `!/`, and the member's path inside it
 * (`/data/cardano.stackexchange.com.7z!/Posts.xml`), so that reports and errors name both. A path
 * is a member path only when the part before `!/` has an archive extension and is a file.
 *
 * `listArchive` lists the regular files of an archive with their unpacked sizes (7-Zip's listing;
 * for tar a pass over the headers, which for `.tar.gz` unpacks the whole archive once); the
 * listing is kept (by path, size and modification time) so that `memberSize` can answer
 * synchronously afterwards. `openMember` streams one member's bytes.
 *
 * Several members of one `.7z`/`.zip` (Posts.xml and PostLinks.xml) are read by ArchiveReads in
 * ONE 7-Zip run: a solid archive is decoded from the start of its block up to each member asked
 * for, so separate runs would decode everything before Posts.xml (PostHistory.xml, Comments.xml:
 * most of a dump) twice. 7-Zip writes the members in archive order; the output is split by the
 * listed sizes, and a member that comes before the one the importer reads first (PostLinks.xml
 * before Posts.xml) is spooled to a temporary file (disk, not memory; deleted at the end).
 */
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QPairsError, throwIfAborted } from '../errors';
import { runSevenZip, SEVEN_ZIP_INTERNAL_ERROR, streamSevenZip, type ByteStream, type SevenZipResult } from './sevenzip';
import { listTar, streamTarMember } from './tar';

/** Archive kinds by file name. */
export type ArchiveKind = '7z' | 'zip' | 'tar' | 'tar.gz';

/** Separator between an archive's path and a member's path in a member path. */
export const MEMBER_SEP = '!/';

/** The archive kind a file name says (`.7z`, `.zip`, `.tar`, `.tar.gz`, `.tgz`; any case), or null. */
export function archiveKind(file: string): ArchiveKind | null {
  const f = file.toLowerCase();
  if (f.endsWith('.7z')) return '7z';
  if (f.endsWith('.zip')) return 'zip';
  if (f.endsWith('.tar.gz') || f.endsWith('.tgz')) return 'tar.gz';
  if (f.endsWith('.tar')) return 'tar';
  return null;
}

/** The member path of `member` inside `archive`. */
export function memberPath(archive: string, member: string): string {
  return `${archive}${MEMBER_SEP}${member}`;
}

/** Splits a member path into archive and member; null when `p` is not one (see the module doc). */
export function splitMemberPath(p: string): { archive: string; member: string } | null {
  for (let i = p.indexOf(MEMBER_SEP); i !== -1; i = p.indexOf(MEMBER_SEP, i + 1)) {
    const archive = p.slice(0, i);
    const member = p.slice(i + MEMBER_SEP.length);
    if (!member || !archiveKind(archive)) continue;
    try {
      if (statSync(archive).isFile()) return { archive, member };
    } catch {
      // not a file: not a member path at this separator
    }
  }
  return null;
}

/** One regular file of an archive: its path inside the archive and its unpacked size in bytes. */
export interface ArchiveEntry {
  name: string;
  size: number;
}

interface Listing {
  size: number;
  mtimeMs: number;
  entries: ArchiveEntry[];
}

const listings = new Map<string, Listing>();

function archiveStat(archive: string): { size: number; mtimeMs: number } {
  try {
    const st = statSync(archive);
    if (!st.isFile()) throw new QPairsError(`${archive}: not a file`, { file: archive, reason: 'not a file' });
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch (e) {
    if (e instanceof QPairsError) throw e;
    const reason = `cannot read the archive (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    throw new QPairsError(`${archive}: ${reason}`, { file: archive, reason });
  }
}

/**
 * 7-Zip's reason for a failure, from what it printed, without the lines that only repeat the
 * archive's name (`ERROR: Data Error : Posts.xml` → `Data Error`), plus what it means for the
 * user (a truncated or corrupt archive).
 */
export function sevenZipReason(r: SevenZipResult, archive: string): string {
  const base = path.basename(archive);
  const lines = `${r.stderr}\n${r.code === 0 ? '' : r.stdout}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && l !== base && l !== `ERROR: ${base}` && l !== `ERROR: ${base} : ${base}` && l !== 'ERRORS:' && !/^7-Zip|^Scanning|^Listing archive|^--$/.test(l))
    .map((l) => l.replace(/^ERROR: (.+?) : .+$/, '$1').replace(/^Open ERROR: /, ''));
  const text = [...new Set(lines)].join('; ') || `7-Zip stopped with exit code ${r.code}`;
  if (/unexpected end/i.test(text)) return `${text} (the archive is truncated)`;
  if (text.includes(SEVEN_ZIP_INTERNAL_ERROR)) return `${text} (the archive is probably truncated or corrupt)`;
  if (/data error|crc failed|headers error|is not archive|cannot open/i.test(text)) return `${text} (the archive is corrupt, or not a ${archiveKind(archive) ?? '7z'} archive)`;
  return text;
}

/** Parses `7zz l -slt -ba`: blocks of `Key = value` lines; keeps regular files with a size. */
export function parseSevenZipListing(text: string): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  let cur: Record<string, string> = {};
  const flush = (): void => {
    const name = cur['Path'];
    const folder = cur['Folder'] === '+' || /^D/.test(cur['Attributes'] ?? '');
    if (name !== undefined && !folder && /^\d+$/.test(cur['Size'] ?? '')) entries.push({ name: name.replace(/\\/g, '/'), size: Number(cur['Size']) });
    cur = {};
  };
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z ]+?) = (.*)$/.exec(line.replace(/\r$/, ''));
    if (m) {
      if (m[1] === 'Path' && cur['Path'] !== undefined) flush();
      cur[m[1]!] = m[2]!;
    } else if (line.trim() === '') flush();
  }
  flush();
  return entries;
}

/**
 * The regular files of an archive with their unpacked sizes. Errors (QPairsError naming the
 * archive): missing file, not an archive, truncated or corrupt headers.
 */
export async function listArchive(archive: string, signal?: AbortSignal): Promise<ArchiveEntry[]> {
  const kind = archiveKind(archive);
  if (!kind) throw new QPairsError(`${archive}: not an archive (.7z, .zip, .tar, .tar.gz, .tgz)`, { file: archive });
  const st = archiveStat(archive);
  const key = path.resolve(archive);
  const known = listings.get(key);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return known.entries;
  let entries: ArchiveEntry[];
  if (kind === 'tar' || kind === 'tar.gz') entries = await listTar(archive, kind === 'tar.gz', signal);
  else {
    const r = await runSevenZip(path.dirname(path.resolve(archive)), ['l', '-slt', '-ba', '-bd', '-spd', '--', path.basename(archive)], signal);
    if (r.code !== 0) {
      const reason = `cannot open the ${kind} archive: ${sevenZipReason(r, archive)}`;
      throw new QPairsError(`${archive}: ${reason}`, { file: archive, reason });
    }
    entries = parseSevenZipListing(r.stdout);
  }
  listings.set(key, { ...st, entries });
  return entries;
}

/** The listed entry of a member path (listArchive must have listed its archive). */
function listedEntry(p: string): { archive: string; member: string; entry: ArchiveEntry } {
  const m = splitMemberPath(p);
  if (!m) throw new QPairsError(`${p}: not a member of an archive`, { file: p });
  const listing = listings.get(path.resolve(m.archive));
  if (!listing) throw new QPairsError(`${p}: archive members are read by the stackexchange format only`, { file: p });
  const entry = listing.entries.find((e) => e.name === m.member);
  if (!entry) throw new QPairsError(`${m.archive}: holds no member ${m.member}`, { file: p, reason: `no member ${m.member}` });
  return { ...m, entry };
}

/** The unpacked size of a member (from the listing made by listArchive). */
export function memberSize(p: string): number {
  return listedEntry(p).entry.size;
}

/** True when `p` is a member path. */
export function isMemberPath(p: string): boolean {
  return splitMemberPath(p) !== null;
}

/** The error for a member that could not be unpacked: names archive and member, and 7-Zip's (or zlib's) reason. */
export function memberError(archive: string, member: string, reason: string): QPairsError {
  const file = memberPath(archive, member);
  const why = `cannot unpack ${member} from the archive ${archive}: ${reason}`;
  return new QPairsError(`${file}: ${why}`, { file, reason: why });
}

/**
 * Streams one member's bytes (bounded memory; see ./sevenzip.ts and ./tar.ts). The stream
 * throws memberError when the archive turns out truncated or corrupt, or when the member's size
 * differs from the listing; CancelledError when `signal` aborts. `close()` ends any worker.
 */
export function openMember(p: string, signal?: AbortSignal): ByteStream {
  const { archive, member, entry } = listedEntry(p);
  memberFailures.delete(p);
  const kind = archiveKind(archive)!;
  let inner: ByteStream;
  if (kind === 'tar' || kind === 'tar.gz') inner = streamTarMember(archive, kind === 'tar.gz', member, (reason) => memberError(archive, member, reason), signal);
  else {
    const args = ['x', '-so', '-bd', '-spd', '-y', '--', path.basename(archive), member];
    inner = streamSevenZip(path.dirname(path.resolve(archive)), args, (r) => memberError(archive, member, sevenZipReason(r, archive)), signal);
  }
  const src = inner[Symbol.asyncIterator]();
  let count = 0;
  let state: 'reading' | 'complete' | 'stopped' = 'reading';
  const it: AsyncIterator<Uint8Array> = {
    async next() {
      if (state !== 'reading') return { done: true, value: undefined };
      const r = await src.next();
      if (r.done) {
        state = 'complete';
        if (count !== entry.size) throw memberError(archive, member, `${count} bytes unpacked, the archive lists ${entry.size} (truncated or corrupt archive)`);
        return r;
      }
      count += r.value.length;
      if (count > entry.size) throw memberError(archive, member, `more data than the ${entry.size} bytes the archive lists (corrupt archive)`);
      return r;
    },
    async return() {
      if (state === 'reading') {
        state = 'stopped';
        await noteFailure(p, src, signal);
      }
      await src.return?.();
      return { done: true, value: undefined };
    },
  };
  return {
    [Symbol.asyncIterator]: () => it,
    bytesRead: () => count,
    close: async () => {
      await it.return!();
      await inner.close();
    },
  };
}

/** How much more of an archive is unpacked, at most, to find out whether it is corrupt after a reader stopped early. */
const VERDICT_BYTES = 64 * 1024 * 1024;
const VERDICT_MS = 10_000;

/** Failures of archives found after their reader stopped on an error (by member path); see noteFailure. */
const memberFailures = new Map<string, QPairsError>();

/**
 * A reader stopped reading a member before its end (bad content: malformed XML, invalid UTF-8 —
 * or garbage from a corrupt archive, which 7-Zip reports only once it is done with the member).
 * Unpacks on (up to VERDICT_BYTES / VERDICT_MS, not when cancelled) to see whether the archive
 * fails; if it does, keeps that error for takeMemberFailure.
 */
async function noteFailure(p: string, src: AsyncIterator<Uint8Array>, signal?: AbortSignal): Promise<void> {
  const t0 = performance.now();
  let n = 0;
  try {
    while (!signal?.aborted && n <= VERDICT_BYTES && performance.now() - t0 <= VERDICT_MS) {
      const r = await src.next();
      if (r.done) return;
      n += r.value.length;
    }
  } catch (e) {
    if (e instanceof QPairsError) memberFailures.set(p, e);
  }
}

/**
 * The archive's failure found after the reader of member path `p` stopped early (once), or null:
 * callers report it instead of the content error that stopped them, which was its symptom.
 */
export function takeMemberFailure(p: string): QPairsError | null {
  const e = memberFailures.get(p) ?? null;
  memberFailures.delete(p);
  return e;
}

/** Where a site's name is read from: `cardano.stackexchange.com`, `stackoverflow.com-Posts`, `mathoverflow.net`. */
const SITE_RE = /^((?:[a-z0-9-]+\.)*?)(stackexchange\.com|stackoverflow\.com|superuser\.com|serverfault\.com|askubuntu\.com|mathoverflow\.net|stackapps\.com)$/;

/**
 * The Stack Exchange site a dump's file, folder or archive name names, or null: the name without
 * archive/compression/XML extensions and without a `-Posts`-style suffix (Stack Overflow ships one
 * archive per file, `stackoverflow.com-Posts.7z`), then `X.stackexchange.com` → `X`
 * (`cstheory.meta.stackexchange.com` → `cstheory.meta`) and the sites with their own domain
 * without it (`stackoverflow.com` → `stackoverflow`, `ru.stackoverflow.com` → `ru.stackoverflow`,
 * `mathoverflow.net` → `mathoverflow`). Case is ignored; the result is lower case.
 */
export function siteName(name: string): string | null {
  let b = name.toLowerCase();
  for (const ext of ['.gz', '.tgz', '.tar', '.7z', '.zip', '.xml']) if (b.endsWith(ext)) b = b.slice(0, -ext.length);
  b = b.replace(/\.tar$/, '').replace(/-[a-z]+$/, '');
  const m = SITE_RE.exec(b);
  if (!m) return null;
  const prefix = m[1]!.replace(/\.$/, '');
  if (m[2] === 'stackexchange.com') return prefix || null;
  const own = m[2]!.replace(/\.(com|net)$/, '');
  return prefix ? `${prefix}.${own}` : own;
}

/**
 * The site a dump file comes from: for a member path the archive's name, else the file's own
 * name (`stackoverflow.com-Posts.xml.gz`) or its folder's (`cardano.stackexchange.com/Posts.xml`).
 */
export function siteOfFile(file: string): string | null {
  const m = splitMemberPath(file);
  if (m) return siteName(path.basename(m.archive));
  return siteName(path.basename(file)) ?? siteName(path.basename(path.dirname(path.resolve(file))));
}

/** 7-Zip's name of the member a failure is about (`ERROR: Data Error : Posts.xml`), if it names one of `names`. */
function failedMember(stderr: string, names: readonly string[]): string | null {
  for (const m of stderr.matchAll(/^ERROR: [^:\n]+ : (.+)$/gm)) {
    const n = m[1]!.trim().replace(/\\/g, '/');
    if (names.includes(n)) return n;
  }
  return null;
}

/**
 * One 7-Zip run unpacking several members of an archive (in archive order) for readers asking for
 * them in any order: the member asked for is streamed, members before it are spooled to temporary
 * files first. Each member can be read once. The run's exit status is checked when its last member
 * has been unpacked, so a CRC failure of any member fails the import.
 */
class SharedExtraction {
  private readonly order: ArchiveEntry[];
  private stream: ByteStream | null = null;
  private it: AsyncIterator<Uint8Array> | null = null;
  /** Index in `order` of the member whose bytes come next, and how many of them are still to come. */
  private cur = 0;
  private left: number;
  private carry: Uint8Array | null = null;
  private readonly spooled = new Map<string, string>();
  private readonly taken = new Set<string>();
  private tmp: string | null = null;

  constructor(
    private readonly archive: string,
    entries: readonly ArchiveEntry[],
    names: readonly string[],
    private readonly signal?: AbortSignal,
  ) {
    this.order = entries.filter((e) => names.includes(e.name));
    this.left = this.order[0]?.size ?? 0;
  }

  has(name: string): boolean {
    return this.order.some((e) => e.name === name);
  }

  private start(): AsyncIterator<Uint8Array> {
    if (this.it) return this.it;
    const names = this.order.map((e) => e.name);
    const args = ['x', '-so', '-bd', '-spd', '-y', '--', path.basename(this.archive), ...names];
    const fail = (r: SevenZipResult): Error => {
      const member = failedMember(r.stderr, names) ?? this.order[Math.min(this.cur, this.order.length - 1)]!.name;
      return memberError(this.archive, member, sevenZipReason(r, this.archive));
    };
    this.stream = streamSevenZip(path.dirname(path.resolve(this.archive)), args, fail, this.signal);
    this.it = this.stream[Symbol.asyncIterator]();
    return this.it;
  }

  /** The next bytes of the current member; null when it is complete. */
  private async pull(): Promise<Uint8Array | null> {
    if (this.left === 0) return null;
    if (!this.carry) {
      const r = await this.start().next();
      if (r.done) {
        const e = this.order[this.cur]!;
        throw memberError(this.archive, e.name, `${e.size - this.left} bytes unpacked, the archive lists ${e.size} (truncated or corrupt archive)`);
      }
      this.carry = r.value;
    }
    const n = Math.min(this.left, this.carry.length);
    const out = this.carry.subarray(0, n);
    this.carry = n < this.carry.length ? this.carry.subarray(n) : null;
    this.left -= n;
    return out;
  }

  /** The current member is complete: on to the next; after the last, 7-Zip's exit is checked. */
  private async advance(): Promise<void> {
    this.taken.add(this.order[this.cur]!.name);
    this.cur++;
    this.left = this.order[this.cur]?.size ?? 0;
    if (this.cur < this.order.length) return;
    const last = this.order[this.order.length - 1]!;
    if (this.carry) throw memberError(this.archive, last.name, `more data than the ${last.size} bytes the archive lists (corrupt archive)`);
    const r = await this.start().next();
    if (!r.done) throw memberError(this.archive, last.name, `more data than the ${last.size} bytes the archive lists (corrupt archive)`);
  }

  /** Writes the current member to a temporary file. */
  private async spoolCurrent(): Promise<void> {
    const e = this.order[this.cur]!;
    this.tmp ??= mkdtempSync(path.join(os.tmpdir(), 'qpairs-archive-'));
    const file = path.join(this.tmp, String(this.cur));
    const fd = openSync(file, 'w');
    try {
      for (let b = await this.pull(); b; b = await this.pull()) {
        throwIfAborted(this.signal);
        writeSync(fd, b);
      }
    } finally {
      closeSync(fd);
    }
    this.spooled.set(e.name, file);
    await this.advance();
  }

  /** Streams one member (see the class doc). */
  open(name: string): ByteStream {
    memberFailures.delete(memberPath(this.archive, name));
    let count = 0;
    let state: 'reading' | 'complete' | 'stopped' = 'reading';
    let spool: AsyncIterator<Buffer> | null = null;
    let started = false;
    const it: AsyncIterator<Uint8Array> = {
      next: async () => {
        if (state !== 'reading') return { done: true, value: undefined };
        if (!started) {
          started = true;
          const file = this.spooled.get(name);
          if (file) spool = (createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
          else {
            if (this.taken.has(name) || !this.has(name)) throw new Error(`${this.archive}: ${name} was read already`);
            while (this.order[this.cur]!.name !== name) await this.spoolCurrent();
          }
        }
        const b = spool ? ((await spool.next()).value as Buffer | undefined) ?? null : await this.pull();
        if (!b) {
          if (!spool) await this.advance();
          state = 'complete';
          return { done: true, value: undefined };
        }
        count += b.length;
        return { done: false, value: b };
      },
      return: async () => {
        if (state === 'reading') {
          state = 'stopped';
          if (!spool && this.it) await noteFailure(memberPath(this.archive, name), this.it, this.signal);
          await spool?.return?.();
          // Left half-read (bad content, a cancel): the run cannot go on.
          await this.close();
        }
        return { done: true, value: undefined };
      },
    };
    return {
      [Symbol.asyncIterator]: () => it,
      bytesRead: () => count,
      close: async () => {
        await it.return!();
      },
    };
  }

  /** Ends the 7-Zip run (if still going) and deletes the temporary files. */
  async close(): Promise<void> {
    await this.stream?.close();
    if (this.tmp) rmSync(this.tmp, { recursive: true, force: true });
    this.tmp = null;
  }
}

/**
 * How one import reads archive members: members of one `.7z`/`.zip` read together share one
 * 7-Zip run (SharedExtraction); others are streamed on their own (openMember). `close()` must be
 * called at the end (it ends any 7-Zip run and deletes temporary files).
 */
export class ArchiveReads {
  private readonly shared = new Map<string, SharedExtraction>();

  /** `files`: the import's files (member paths among them; their archives listed). */
  constructor(
    files: readonly string[],
    private readonly signal?: AbortSignal,
  ) {
    const byArchive = new Map<string, { archive: string; members: Set<string> }>();
    for (const f of files) {
      const m = splitMemberPath(f);
      if (!m) continue;
      const kind = archiveKind(m.archive);
      if (kind !== '7z' && kind !== 'zip') continue;
      const key = path.resolve(m.archive);
      const g = byArchive.get(key) ?? { archive: m.archive, members: new Set<string>() };
      g.members.add(m.member);
      byArchive.set(key, g);
    }
    for (const [key, g] of byArchive) {
      const listing = listings.get(key);
      if (g.members.size < 2 || !listing) continue;
      this.shared.set(key, new SharedExtraction(g.archive, listing.entries, [...g.members], signal));
    }
  }

  /** Streams a member (a member path). */
  open(p: string): ByteStream {
    const m = splitMemberPath(p);
    const s = m ? this.shared.get(path.resolve(m.archive)) : undefined;
    if (m && s?.has(m.member)) return s.open(m.member);
    return openMember(p, this.signal);
  }

  async close(): Promise<void> {
    for (const s of this.shared.values()) await s.close();
    this.shared.clear();
  }
}
