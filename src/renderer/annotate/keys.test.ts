import { describe, expect, it } from 'vitest';
import { normaliseLabel, type LabelScheme } from '../../shared/labels';
import { commandKeyOf, describeLabel, labelKeyOf, labelKeys, rulingKeys, valueForKey } from './keys';

describe('label keys', () => {
  it('maps keys to values of each scheme (all valid for the scheme)', () => {
    expect(valueForKey('binary', '1')).toBe('1');
    expect(valueForKey('binary', '0')).toBe('0');
    expect(valueForKey('binary', '?')).toBe('?');
    expect(valueForKey('binary', '2')).toBeNull();
    expect(valueForKey('semeval3', '2')).toBe('PerfectMatch');
    expect(valueForKey('likert5', '1')).toBe('-2');
    expect(valueForKey('likert5', '5')).toBe('2');
    expect(valueForKey('graded', '7')).toBe('7');
    for (const scheme of ['binary', 'semeval3', 'likert5', 'graded'] as LabelScheme[]) {
      for (const k of labelKeys(scheme)) expect(normaliseLabel(scheme, k.value)).toBe(k.value);
      const keys = labelKeys(scheme).map((k) => k.key);
      expect(new Set(keys).size).toBe(keys.length);
      // never clash with navigation keys
      for (const nav of ['j', 'k', 'n', 'N', 'p', 'g', 'h', 'u', 'x', 'o', 'b', ' ', 'Enter', 'Backspace']) expect(keys).not.toContain(nav);
    }
  });

  it('describes stored values', () => {
    expect(describeLabel('binary', '1')).toEqual({ text: 'similar', tone: 'pos' });
    expect(describeLabel('binary', null)).toEqual({ text: '', tone: 'none' });
    expect(describeLabel('semeval3', 'Irrelevant').text).toBe('irrelevant');
    expect(describeLabel('binary', 'weird').text).toBe('weird');
  });

  it('Review rules with every label key but "?" (a judge\'s "?" settles nothing)', () => {
    for (const scheme of ['binary', 'semeval3', 'likert5', 'graded'] as LabelScheme[]) {
      const ruling = rulingKeys(scheme);
      expect(ruling.map((k) => k.value)).not.toContain('?');
      expect(ruling.map((k) => k.value)).toEqual(labelKeys(scheme).map((k) => k.value).filter((v) => v !== '?'));
    }
    expect(rulingKeys('binary').map((k) => k.key)).toEqual(['1', '0']);
  });
});

describe('label keys on any keyboard layout', () => {
  it("AZERTY's top row gives the digit without Shift (& é \" ' ( - è _ ç à), as QWERTY's does", () => {
    const azerty = ['à', '&', 'é', '"', "'", '(', '-', 'è', '_', 'ç'];
    azerty.forEach((key, d) => expect(labelKeyOf({ key, code: `Digit${d}` }), key).toBe(String(d)));
    expect(valueForKey('likert5', labelKeyOf({ key: '(', code: 'Digit5' }))).toBe('2');
    expect(valueForKey('binary', labelKeyOf({ key: '&', code: 'Digit1' }))).toBe('1');
  });
  it('typed digits and "?" stand for themselves (numpad, Shift on AZERTY, QWERTY); letters stay letters', () => {
    expect(labelKeyOf({ key: '3', code: 'Numpad3' })).toBe('3');
    expect(labelKeyOf({ key: '1', code: 'Digit1' })).toBe('1');
    expect(labelKeyOf({ key: '?', code: 'KeyM' })).toBe('?'); // AZERTY's Shift+,
    expect(labelKeyOf({ key: '?', code: 'Slash' })).toBe('?');
    expect(labelKeyOf({ key: 'j', code: 'KeyJ' })).toBe('j');
    expect(labelKeyOf({ key: 'Enter', code: 'Enter' })).toBe('Enter');
  });
  it('a letter command follows Shift, not Caps Lock (with Caps Lock on, n went to the next query and j, k, u did nothing)', () => {
    const press = (key: string, capsLock: boolean) => commandKeyOf({ key, getModifierState: (m: string) => m === 'CapsLock' && capsLock });
    expect(press('N', true)).toBe('n'); // Caps Lock, no Shift: next unlabeled
    expect(press('n', true)).toBe('N'); // Caps Lock + Shift: next query
    expect(press('J', true)).toBe('j');
    expect(press('U', true)).toBe('u'); // Caps Lock, no Shift: undo
    expect(press('u', true)).toBe('U'); // Caps Lock + Shift: redo
    expect(press('n', false)).toBe('n');
    expect(press('N', false)).toBe('N');
    for (const key of ['1', '?', 'Enter', ' ', 'ArrowDown', 'é']) expect(press(key, true)).toBe(key);
  });
});
