// The map's pixels as an indexed (palette) PNG. A map is flat colours plus the anti-aliased edges
// between them: the 256 commonest colours cover ~98 % of its pixels, so an 8-bit palette keeps it
// looking the same at about a third of the bytes of resvg's RGBA PNG, and encodes in less CPU
// (bench:deadline: a thousand maps at one deadline, each stored once and mailed to every player).
// Our own: the registry's palette encoders are unmaintained (upng-js, 2017) or native with
// downloaded binaries (sharp); this is a palette, zlib's deflate and three chunks.
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * The nearest palette colour (squared distance in RGB) to each colour left out of the palette.
 * The palette is searched in order of red outward from the colour's own red, and the search
 * stops once red alone is farther than the best found: a few dozen comparisons, not 256.
 */
class NearestColour {
  private readonly order: number[];
  private readonly reds: Int32Array;
  private readonly greens: Int32Array;
  private readonly blues: Int32Array;

  constructor(palette: Uint32Array) {
    this.order = [...palette.keys()].sort((a, b) => (palette[a]! & 0xff) - (palette[b]! & 0xff) || a - b);
    this.reds = Int32Array.from(this.order, (i) => palette[i]! & 0xff);
    this.greens = Int32Array.from(this.order, (i) => (palette[i]! >>> 8) & 0xff);
    this.blues = Int32Array.from(this.order, (i) => (palette[i]! >>> 16) & 0xff);
  }

  /** The palette index nearest to `rgb` (red in the low byte); the lowest index on a tie. */
  of(rgb: number): number {
    const r = rgb & 0xff;
    const g = (rgb >>> 8) & 0xff;
    const b = (rgb >>> 16) & 0xff;
    const reds = this.reds;
    let lo = 0;
    let hi = reds.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (reds[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    let best = -1;
    let bestD = Infinity;
    for (let up = lo, down = lo - 1; up < reds.length || down >= 0;) {
      const dUp = up < reds.length ? (reds[up]! - r) ** 2 : Infinity;
      const dDown = down >= 0 ? (r - reds[down]!) ** 2 : Infinity;
      if (Math.min(dUp, dDown) > bestD) break;
      const k = dUp <= dDown ? up++ : down--;
      const dg = g - this.greens[k]!;
      const db = b - this.blues[k]!;
      const d = (dUp <= dDown ? dUp : dDown) + dg * dg + db * db;
      const i = this.order[k]!;
      if (d < bestD || (d === bestD && i < best)) {
        best = i;
        bestD = d;
      }
    }
    return best;
  }
}

/**
 * Each colour (24-bit) met gets a number, 0, 1, 2… in order, by open addressing: a map has a few
 * thousand colours and ~150,000 runs to look up, where a Map cost more than all the rest.
 */
class ColourNumbers {
  private static readonly EMPTY = 0xffffffff;
  private bits = 14;
  private keys = new Uint32Array(1 << this.bits).fill(ColourNumbers.EMPTY);
  private numbers = new Uint32Array(1 << this.bits);
  /** The colours by their number. */
  readonly colours: number[] = [];

  /** Fibonacci hashing: the top `bits` bits of the product. */
  private home(rgb: number): number {
    return Math.imul(rgb, 0x9e3779b1) >>> (32 - this.bits);
  }

  numberOf(rgb: number): number {
    const mask = this.keys.length - 1;
    for (let i = this.home(rgb); ; i = (i + 1) & mask) {
      const k = this.keys[i]!;
      if (k === rgb) return this.numbers[i]!;
      if (k === ColourNumbers.EMPTY) {
        const n = this.colours.push(rgb) - 1;
        this.keys[i] = rgb;
        this.numbers[i] = n;
        if (this.colours.length * 2 > this.keys.length) this.rehash();
        return n;
      }
    }
  }

  private rehash(): void {
    this.bits++;
    this.keys = new Uint32Array(1 << this.bits).fill(ColourNumbers.EMPTY);
    this.numbers = new Uint32Array(1 << this.bits);
    const mask = this.keys.length - 1;
    this.colours.forEach((rgb, n) => {
      let i = this.home(rgb);
      while (this.keys[i] !== ColourNumbers.EMPTY) i = (i + 1) & mask;
      this.keys[i] = rgb;
      this.numbers[i] = n;
    });
  }
}

/** Pixels of an opaque RGBA image: resvg's on a solid background. */
export interface Picture {
  rgba: Uint8Array;
  width: number;
  height: number;
}

/** Each picture's runs (end and colour number), in scratch arrays kept from one call to the next. */
interface Runs {
  ends: Uint32Array;
  colours: Uint32Array;
  count: number;
}

/**
 * Buffers kept from one call to the next (a worker draws a thousand maps at a deadline): allocating
 * them anew each time cost more in garbage collection than the work they hold. One set a picture
 * of a call (an edict's languages: two).
 */
const scratch: { runs: Runs[]; raws: Uint8Array[] } = { runs: [], raws: [] };

const grow = (a: Uint32Array): Uint32Array => {
  const out = new Uint32Array(a.length * 2);
  out.set(a);
  return out;
};

/**
 * The numbers of the `k` commonest colours, commonest first, a tie to the lower colour: only the
 * colours as common as the k-th are sorted (a map has thousands, most of them rare).
 */
function commonest(colours: readonly number[], counts: Uint32Array, k: number): number[] {
  const n = colours.length;
  let threshold = 0;
  if (n > k) {
    const sorted = counts.slice(0, n).sort();
    threshold = sorted[n - k]!;
  }
  const candidates: number[] = [];
  for (let c = 0; c < n; c++) if (counts[c]! >= threshold) candidates.push(c);
  return candidates.sort((a, b) => counts[b]! - counts[a]! || colours[a]! - colours[b]!).slice(0, k);
}

/**
 * An opaque RGBA image (resvg's pixels on a solid background) as a PNG of colour type 3: its
 * commonest 256 colours as the palette, every other colour drawn as the nearest of them. Exact
 * when the image has 256 colours or fewer. Alpha is dropped: callers render on a background.
 */
export function encodeIndexedPng(rgba: Uint8Array, width: number, height: number, level = 6): Buffer {
  return encodeIndexedPngs([{ rgba, width, height }], level)[0]!;
}

/**
 * Several pictures as PNGs, as encodeIndexedPng, with one palette for all: the commonest colours
 * of them all. An edict's maps in two languages share three rows in four (the board and its marks),
 * so a row of a later picture the same as the first picture's is neither counted nor looked up
 * again, only its indices copied (bench:map).
 */
export function encodeIndexedPngs(pictures: readonly Picture[], level = 6): Buffer[] {
  const numbers = new ColourNumbers();
  const state = { counts: new Uint32Array(1 << 12) };
  const first = pictures[0];
  // Per picture: which rows are the first picture's (the rest were scanned into its runs).
  const copied = pictures.map((pic, k) => {
    if (pic.rgba.length !== pic.width * pic.height * 4) throw new Error('encodeIndexedPng: the pixels do not match the size');
    const same = new Uint8Array(pic.height);
    if (k > 0 && first && pic.width === first.width) {
      const a = Buffer.from(first.rgba.buffer, first.rgba.byteOffset, first.rgba.byteLength);
      const b = Buffer.from(pic.rgba.buffer, pic.rgba.byteOffset, pic.rgba.byteLength);
      const row = pic.width * 4;
      for (let r = 0; r < Math.min(pic.height, first.height); r++)
        same[r] = a.compare(b, r * row, r * row + row, r * row, r * row + row) === 0 ? 1 : 0;
    }
    scratch.runs[k] ??= { ends: new Uint32Array(1 << 16), colours: new Uint32Array(1 << 16), count: 0 };
    scan(pic, same, numbers, state, scratch.runs[k]);
    return same;
  });
  const all = numbers.colours;
  const counts = state.counts;
  const top = commonest(all, counts, 256);
  const palette = Uint32Array.from(top, (n) => all[n]!);
  const nearest = new NearestColour(palette);
  const indexOf = new Uint8Array(all.length);
  const inPalette = new Int16Array(all.length).fill(-1);
  top.forEach((n, rank) => (inPalette[n] = rank));
  for (let n = 0; n < all.length; n++) indexOf[n] = inPalette[n]! >= 0 ? inPalette[n]! : nearest.of(all[n]!);
  const plte = Buffer.alloc(palette.length * 3);
  palette.forEach((rgb, i) => plte.set([rgb & 0xff, (rgb >>> 8) & 0xff, (rgb >>> 16) & 0xff], i * 3));
  return pictures.map((pic, k) => {
    // Each row behind its filter byte (type 0, none: the usual for palette images), then its indices.
    const size = (pic.width + 1) * pic.height;
    if ((scratch.raws[k]?.length ?? 0) < size) scratch.raws[k] = new Uint8Array(size);
    const raw = scratch.raws[k]!.subarray(0, size);
    writeIndices(raw, pic, copied[k]!, scratch.runs[k]!, indexOf, scratch.raws[0]!);
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(pic.width, 0);
    ihdr.writeUInt32BE(pic.height, 4);
    ihdr.set([8, 3, 0, 0, 0], 8); // 8 bits per index, colour type 3 (palette), deflate, filter 0, no interlace
    return Buffer.concat([
      SIGNATURE,
      chunk('IHDR', ihdr),
      chunk('PLTE', plte),
      chunk('IDAT', deflateSync(raw, { level })),
      chunk('IEND', new Uint8Array(0)),
    ]);
  });
}

/**
 * A picture's rows, but those marked `copied`, as runs of one colour: each run looked up once,
 * counted, and remembered (its end and its colour's number) for writing the indices. Long runs of
 * one colour are the rule (~10 pixels a run on a map). A run ends with its row.
 */
function scan(pic: Picture, copied: Uint8Array, numbers: ColourNumbers, state: { counts: Uint32Array }, out: Runs): void {
  const { rgba, width, height } = pic;
  // RGBA read as one number per pixel, red in the low byte (every platform Node runs on here is
  // little-endian); signed, so that every pixel is a small integer to V8, alpha masked off below.
  // A view needs 4-byte alignment: otherwise a copy.
  const aligned = rgba.byteOffset % 4 === 0 ? rgba : rgba.slice();
  const px = new Int32Array(aligned.buffer, aligned.byteOffset, width * height);
  let counts = state.counts;
  let runEnds = out.ends;
  let runColours = out.colours;
  let runs = 0;
  // The colour of the run before the last, with its number: a run is never the colour of the one
  // just before it, but often of the one before that (space, grid line, space…), and this saves
  // looking it up.
  let before = -1;
  let beforeN = 0;
  let last = -1;
  let lastN = 0;
  for (let row = 0, rowEnd = width; row < height; row++, rowEnd += width) {
    if (copied[row]) continue;
    for (let i = rowEnd - width; i < rowEnd;) {
      const v = px[i]!;
      let j = i + 1;
      while (j < rowEnd && px[j] === v) j++;
      const rgb = v & 0xffffff;
      let n: number;
      if (rgb === before) n = beforeN;
      else if (rgb === last) n = lastN;
      else n = numbers.numberOf(rgb);
      before = last;
      beforeN = lastN;
      last = rgb;
      lastN = n;
      if (n === counts.length) counts = grow(counts);
      counts[n]! += j - i;
      if (runs === runEnds.length) [runEnds, runColours] = [grow(runEnds), grow(runColours)];
      runEnds[runs] = j;
      runColours[runs++] = n;
      i = j;
    }
  }
  state.counts = counts;
  [out.ends, out.colours, out.count] = [runEnds, runColours, runs];
}

/** The picture's indices into `raw`, behind each row's filter byte: scanned rows from their runs, copied rows from `from` (the first picture's). */
function writeIndices(raw: Uint8Array, pic: Picture, copied: Uint8Array, runs: Runs, indexOf: Uint8Array, from: Uint8Array): void {
  const width = pic.width;
  const { ends, colours } = runs;
  let r = 0;
  for (let row = 0, at = 0; row < pic.height; row++, at += width + 1) {
    if (copied[row]) {
      raw.set(from.subarray(at, at + width + 1), at);
      continue;
    }
    raw[at] = 0; // the filter byte: the buffer is reused
    const rowStart = row * width;
    const rowEnd = rowStart + width;
    const shift = at + 1 - rowStart; // from a pixel's place in the picture to its index's in `raw`
    for (let start = rowStart; start < rowEnd; r++) {
      const end = ends[r]!;
      const k = indexOf[colours[r]!]!;
      // A builtin call costs more than a short loop.
      if (end - start > 64) raw.fill(k, start + shift, end + shift);
      else for (let i = start + shift; i < end + shift; i++) raw[i] = k;
      start = end;
    }
  }
}
