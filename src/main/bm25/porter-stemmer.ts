/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980) exactly as
 * Lucene 8's PorterStemFilter applies it: the reference implementation's steps 1a–5 including its
 * two departures from the paper (-bli → -ble and -logi → -log), on UTF-16 code units, where
 * every unit other than a, e, i, o, u (and y after a consonant) counts as a consonant. Words of
 * one or two units are left alone. Input is expected lowercased.
 */

/** Working state: the word's code units in b[0..k]; j marks the end of the stem being examined. */
class PorterState {
  b: number[] = [];
  k = 0;
  j = 0;

  cons(i: number): boolean {
    switch (this.b[i]) {
      case 0x61: case 0x65: case 0x69: case 0x6f: case 0x75:
        return false;
      case 0x79:
        return i === 0 ? true : !this.cons(i - 1);
      default:
        return true;
    }
  }

  /** Number of consonant-vowel sequences between 0 and j. */
  m(): number {
    let n = 0;
    let i = 0;
    const j = this.j;
    for (;;) {
      if (i > j) return n;
      if (!this.cons(i)) break;
      i++;
    }
    i++;
    for (;;) {
      for (;;) {
        if (i > j) return n;
        if (this.cons(i)) break;
        i++;
      }
      i++;
      n++;
      for (;;) {
        if (i > j) return n;
        if (!this.cons(i)) break;
        i++;
      }
      i++;
    }
  }

  vowelInStem(): boolean {
    for (let i = 0; i <= this.j; i++) if (!this.cons(i)) return true;
    return false;
  }

  doubleC(j: number): boolean {
    if (j < 1) return false;
    if (this.b[j] !== this.b[j - 1]) return false;
    return this.cons(j);
  }

  /** consonant-vowel-consonant ending at i, the last not w, x or y. */
  cvc(i: number): boolean {
    if (i < 2 || !this.cons(i) || this.cons(i - 1) || !this.cons(i - 2)) return false;
    const ch = this.b[i];
    return !(ch === 0x77 || ch === 0x78 || ch === 0x79);
  }

  ends(s: string): boolean {
    const l = s.length;
    const o = this.k - l + 1;
    if (o < 0) return false;
    for (let i = 0; i < l; i++) if (this.b[o + i] !== s.charCodeAt(i)) return false;
    this.j = this.k - l;
    return true;
  }

  setTo(s: string): void {
    const l = s.length;
    const o = this.j + 1;
    for (let i = 0; i < l; i++) this.b[o + i] = s.charCodeAt(i);
    this.k = this.j + l;
  }

  r(s: string): void {
    if (this.m() > 0) this.setTo(s);
  }

  /** Plurals and -ed / -ing. */
  step1(): void {
    const b = this.b;
    if (b[this.k] === 0x73) {
      if (this.ends('sses')) this.k -= 2;
      else if (this.ends('ies')) this.setTo('i');
      else if (b[this.k - 1] !== 0x73) this.k--;
    }
    if (this.ends('eed')) {
      if (this.m() > 0) this.k--;
    } else if ((this.ends('ed') || this.ends('ing')) && this.vowelInStem()) {
      this.k = this.j;
      if (this.ends('at')) this.setTo('ate');
      else if (this.ends('bl')) this.setTo('ble');
      else if (this.ends('iz')) this.setTo('ize');
      else if (this.doubleC(this.k)) {
        const ch = b[this.k--];
        if (ch === 0x6c || ch === 0x73 || ch === 0x7a) this.k++;
      } else if (this.m() === 1 && this.cvc(this.k)) this.setTo('e');
    }
  }

  /** Terminal y → i when there is another vowel in the stem. */
  step2(): void {
    if (this.ends('y') && this.vowelInStem()) this.b[this.k] = 0x69;
  }

  /** Double suffixes to single ones. */
  step3(): void {
    if (this.k === 0) return;
    switch (this.b[this.k - 1]) {
      case 0x61: // a
        if (this.ends('ational')) this.r('ate');
        else if (this.ends('tional')) this.r('tion');
        break;
      case 0x63: // c
        if (this.ends('enci')) this.r('ence');
        else if (this.ends('anci')) this.r('ance');
        break;
      case 0x65: // e
        if (this.ends('izer')) this.r('ize');
        break;
      case 0x6c: // l
        if (this.ends('bli')) this.r('ble');
        else if (this.ends('alli')) this.r('al');
        else if (this.ends('entli')) this.r('ent');
        else if (this.ends('eli')) this.r('e');
        else if (this.ends('ousli')) this.r('ous');
        break;
      case 0x6f: // o
        if (this.ends('ization')) this.r('ize');
        else if (this.ends('ation')) this.r('ate');
        else if (this.ends('ator')) this.r('ate');
        break;
      case 0x73: // s
        if (this.ends('alism')) this.r('al');
        else if (this.ends('iveness')) this.r('ive');
        else if (this.ends('fulness')) this.r('ful');
        else if (this.ends('ousness')) this.r('ous');
        break;
      case 0x74: // t
        if (this.ends('aliti')) this.r('al');
        else if (this.ends('iviti')) this.r('ive');
        else if (this.ends('biliti')) this.r('ble');
        break;
      case 0x67: // g
        if (this.ends('logi')) this.r('log');
        break;
    }
  }

  /** -ic-, -full, -ness etc. */
  step4(): void {
    switch (this.b[this.k]) {
      case 0x65: // e
        if (this.ends('icate')) this.r('ic');
        else if (this.ends('ative')) this.r('');
        else if (this.ends('alize')) this.r('al');
        break;
      case 0x69: // i
        if (this.ends('iciti')) this.r('ic');
        break;
      case 0x6c: // l
        if (this.ends('ical')) this.r('ic');
        else if (this.ends('ful')) this.r('');
        break;
      case 0x73: // s
        if (this.ends('ness')) this.r('');
        break;
    }
  }

  /** -ant, -ence etc. in context <c>vcvc<v>. */
  step5(): void {
    if (this.k === 0) return;
    const b = this.b;
    switch (b[this.k - 1]) {
      case 0x61:
        if (this.ends('al')) break;
        return;
      case 0x63:
        if (this.ends('ance')) break;
        if (this.ends('ence')) break;
        return;
      case 0x65:
        if (this.ends('er')) break;
        return;
      case 0x69:
        if (this.ends('ic')) break;
        return;
      case 0x6c:
        if (this.ends('able')) break;
        if (this.ends('ible')) break;
        return;
      case 0x6e:
        if (this.ends('ant')) break;
        if (this.ends('ement')) break;
        if (this.ends('ment')) break;
        if (this.ends('ent')) break;
        return;
      case 0x6f:
        if (this.ends('ion') && this.j >= 0 && (b[this.j] === 0x73 || b[this.j] === 0x74)) break;
        if (this.ends('ou')) break;
        return;
      case 0x73:
        if (this.ends('ism')) break;
        return;
      case 0x74:
        if (this.ends('ate')) break;
        if (this.ends('iti')) break;
        return;
      case 0x75:
        if (this.ends('ous')) break;
        return;
      case 0x76:
        if (this.ends('ive')) break;
        return;
      case 0x7a:
        if (this.ends('ize')) break;
        return;
      default:
        return;
    }
    if (this.m() > 1) this.k = this.j;
  }

  /** Final -e, and -ll → -l. */
  step6(): void {
    this.j = this.k;
    if (this.b[this.k] === 0x65) {
      const a = this.m();
      if (a > 1 || (a === 1 && !this.cvc(this.k - 1))) this.k--;
    }
    if (this.b[this.k] === 0x6c && this.doubleC(this.k) && this.m() > 1) this.k--;
  }
}

const state = new PorterState();

/** The Porter stem of a lowercased word. */
export function porterStem(word: string): string {
  const n = word.length;
  if (n <= 2) return word;
  const st = state;
  st.b.length = n;
  for (let i = 0; i < n; i++) st.b[i] = word.charCodeAt(i);
  st.k = n - 1;
  st.j = 0;
  st.step1();
  st.step2();
  st.step3();
  st.step4();
  st.step5();
  st.step6();
  if (st.k === n - 1) {
    let same = true;
    for (let i = 0; i < n; i++) if (st.b[i] !== word.charCodeAt(i)) same = false;
    if (same) return word;
  }
  return String.fromCharCode(...st.b.slice(0, st.k + 1));
}
