import { kid, kids, val, type XEl } from './xml.js';

interface Level {
  start: number;
  fmt: string;
  text: string;
}

interface Num {
  abstractId: string;
  overrides: Map<number, number>;
}

const ROMAN: [number, string][] = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

function roman(n: number): string {
  let out = '';
  for (const [v, s] of ROMAN) {
    while (n >= v) {
      out += s;
      n -= v;
    }
  }
  return out;
}

function letter(n: number): string {
  return String.fromCharCode(65 + ((n - 1) % 26));
}

const FORMATS: Record<string, (n: number) => string> = {
  decimal: String,
  decimalZero: (n) => String(n).padStart(2, '0'),
  upperLetter: letter,
  lowerLetter: (n) => letter(n).toLowerCase(),
  upperRoman: roman,
  lowerRoman: (n) => roman(n).toLowerCase(),
};

function readLevels(abs: XEl): Map<number, Level> {
  const levels = new Map<number, Level>();
  for (const lvl of kids(abs, 'w:lvl')) {
    levels.set(Number(lvl.attrs['w:ilvl'] ?? 0), {
      start: Number(val(kid(lvl, 'w:start')) ?? 1),
      fmt: val(kid(lvl, 'w:numFmt')) ?? 'decimal',
      text: val(kid(lvl, 'w:lvlText')) ?? '',
    });
  }
  return levels;
}

function readNum(n: XEl): Num {
  const overrides = new Map<number, number>();
  for (const o of kids(n, 'w:lvlOverride')) {
    const start = val(kid(o, 'w:startOverride'));
    if (start !== undefined) overrides.set(Number(o.attrs['w:ilvl'] ?? 0), Number(start));
  }
  return { abstractId: val(kid(n, 'w:abstractNumId')) ?? '', overrides };
}

// Word keeps one counter per abstract list: a new w:num continues it unless it carries a startOverride.
export class Numbering {
  private readonly abstracts = new Map<string, Map<number, Level>>();
  private readonly nums = new Map<string, Num>();
  private readonly counters = new Map<string, number[]>();
  private readonly started = new Set<string>();

  constructor(root: XEl | undefined) {
    if (!root) return;
    for (const a of kids(root, 'w:abstractNum')) this.abstracts.set(a.attrs['w:abstractNumId'] ?? '', readLevels(a));
    for (const n of kids(root, 'w:num')) this.nums.set(n.attrs['w:numId'] ?? '', readNum(n));
  }

  next(numId: string, ilvl: number): string | undefined {
    const num = this.nums.get(numId);
    const levels = num && this.abstracts.get(num.abstractId);
    const level = levels?.get(ilvl);
    return num && levels && level ? this.advance(numId, ilvl, num, levels) : undefined;
  }

  private advance(numId: string, ilvl: number, num: Num, levels: Map<number, Level>): string {
    const level = levels.get(ilvl)!;
    const counters = this.countersFor(numId, num, levels);
    counters[ilvl] = (counters[ilvl] ?? level.start - 1) + 1;
    for (let deeper = ilvl + 1; deeper < 9; deeper++) counters[deeper] = (levels.get(deeper)?.start ?? 1) - 1;
    if (level.fmt === 'bullet' || level.fmt === 'none') return '';
    return level.text.replace(/%(\d)/g, (_m, d: string) => {
      const l = Number(d) - 1;
      const fmt = FORMATS[levels.get(l)?.fmt ?? 'decimal'] ?? String;
      return fmt(counters[l] ?? 1);
    });
  }

  private countersFor(numId: string, num: Num, levels: Map<number, Level>): number[] {
    let counters = this.counters.get(num.abstractId);
    const restart = !this.started.has(numId) && num.overrides.size > 0;
    if (!counters || restart) {
      counters = [];
      for (let l = 0; l < 9; l++) counters[l] = (num.overrides.get(l) ?? levels.get(l)?.start ?? 1) - 1;
      this.counters.set(num.abstractId, counters);
    }
    this.started.add(numId);
    return counters;
  }
}
