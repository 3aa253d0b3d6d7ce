/**
 * A progress bar on stderr for long CLI operations. Draws only when stderr is a TTY (so scripts
 * and CI logs stay clean) and at most ~10 times a second.
 */
export class ProgressBar {
  private last = 0;
  private drawn = false;
  private readonly start = Date.now();
  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number, total: number, note = ''): void {
    if (!this.stream.isTTY) return;
    const t = Date.now();
    if (t - this.last < 100 && done < total) return;
    this.last = t;
    const width = 30;
    const frac = total > 0 ? Math.min(1, done / total) : 0;
    const fill = Math.round(frac * width);
    const pct = total > 0 ? `${(frac * 100).toFixed(0).padStart(3)}%` : '    ';
    const secs = ((t - this.start) / 1000).toFixed(1);
    this.stream.write(`\r${this.label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${pct} ${note} ${secs}s\x1b[K`);
    this.drawn = true;
  }

  done(): void {
    if (this.drawn) this.stream.write('\r\x1b[K');
  }
}
