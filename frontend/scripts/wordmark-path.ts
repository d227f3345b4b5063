/**
 * The wordmark, the brand's name in its typeface, as one SVG path drawn from a font file: what
 * draw-wordmark.ts writes to frontend/src/components/ (wordmark.svg and wordmark-box.ts), and what a test
 * draws again to hold those files to the font and the colours (test/unit/scripts/wordmark.test.ts).
 *
 * subset-font instances the file at the logo's weight (a TrueType file of the name's letters), and HarfBuzz
 * (harfbuzzjs, what subset-font itself runs on) shapes the name with the font's kerning and gives each
 * glyph's outline. The outlines are set side by side at the logo's tracking, turned y-down, and written as
 * one path in relative commands with whole coordinates of 1/100 em: about 0.2 px at the logo's size.
 */
import * as hb from 'harfbuzzjs';
import subsetFont from 'subset-font';
import { BRAND_NAME } from '#contract/brand';

/** The logo's weight (the top of the file's weight axis) and its tracking, -0.025 em (Tailwind's `tracking-tight`). */
const WEIGHT = 700;
const TRACKING_EM = -0.025;
/** Units of the path per em: whole numbers of these are fine enough from the logo's 20 px to the preview's 120 px. */
const UNITS_PER_EM = 100;

export interface Wordmark {
  /** The ink's box, in units of 1/100 em. */
  width: number;
  height: number;
  /** The path, y down, from the box's top left corner. */
  d: string;
}

type Point = [number, number];
type Segment = { type: 'M' | 'L'; to: Point } | { type: 'Q'; control: Point; to: Point } | { type: 'Z' };

/** The name's outlines in path units (not rounded), y down, the ink's box from 0, 0; with the box's size. */
async function outline(fontFile: Buffer): Promise<Omit<Wordmark, 'd'> & { segments: Segment[] }> {
  const font = await subsetFont(fontFile, BRAND_NAME, {
    targetFormat: 'truetype',
    variationAxes: { wght: WEIGHT },
  });
  const face = new hb.Face(new hb.Blob(font));
  const hbFont = new hb.Font(face);
  const scale = UNITS_PER_EM / face.upem;
  const buffer = new hb.Buffer();
  buffer.addText(BRAND_NAME);
  buffer.guessSegmentProperties();
  hb.shape(hbFont, buffer);
  const positions = buffer.getGlyphPositions();

  // Each glyph's commands at its place on the line, in font units, y up.
  const placed: { type: string; values: number[] }[] = [];
  let penX = 0;
  buffer.getGlyphInfos().forEach(({ codepoint: glyph }, index) => {
    const { xAdvance = 0, xOffset = 0, yOffset = 0 } = positions[index] ?? {};
    for (const { type, values } of hbFont.glyphToJson(glyph))
      placed.push({
        type,
        values: values.map((value, at) => value + (at % 2 === 0 ? penX + xOffset : yOffset)),
      });
    penX += xAdvance + TRACKING_EM * face.upem;
  });

  const xs = placed.flatMap(({ values }) => values.filter((_, at) => at % 2 === 0));
  const ys = placed.flatMap(({ values }) => values.filter((_, at) => at % 2 === 1));
  const [left, top, bottom] = [Math.min(...xs), Math.max(...ys), Math.min(...ys)];
  const point = (x = 0, y = 0): Point => [(x - left) * scale, (top - y) * scale];
  const segments = placed.map(({ type, values: [a, b, c, d] }): Segment => {
    if (type === 'M' || type === 'L') return { type, to: point(a, b) };
    if (type === 'Q') return { type, control: point(a, b), to: point(c, d) };
    if (type === 'Z') return { type };
    throw new Error(`${BRAND_NAME}: an outline command the wordmark does not draw: ${type}`);
  });
  return {
    segments,
    width: Math.round((Math.max(...xs) - left) * scale),
    height: Math.round((top - bottom) * scale),
  };
}

/** Numbers as a path writes them: a space between two, none before a minus sign. */
function numbers(values: number[]): string {
  return values.map((value, at) => (at > 0 && value >= 0 ? ` ${value}` : `${value}`)).join('');
}

const rounded = ([x, y]: Point): Point => [Math.round(x), Math.round(y)];
const same = (a: Point, b: Point) => Math.abs(a[0] - b[0]) < 1e-6 && Math.abs(a[1] - b[1]) < 1e-6;
/** Whether the outline leaves `joint` in the direction it came: TrueType's implied on-curve point. */
const smoothAt = (joint: Point, before: Point, after: Point) =>
  same([2 * joint[0] - before[0], 2 * joint[1] - before[1]], after);

/**
 * The segments as path data in relative commands with whole coordinates, a command's letter only where it
 * changes. A curve that continues the one before it smoothly (most of a TrueType outline, whose on-curve
 * point between two control points is implied) is a `t`, its control point the mirror of the one before;
 * the joint before it is rounded so that the mirror stays within a unit of the font's control point.
 */
function pathData(segments: Segment[]): string {
  let data = '';
  let previous = '';
  /** Where the pen is and where the contour started, as drawn (rounded) and in the font. */
  let current: Point = [0, 0];
  let fontCurrent: Point = [0, 0];
  let start: Point = [0, 0];
  let fontStart: Point = [0, 0];
  /** The control point of the curve just drawn, as drawn, and of the font's; none after a line or a move. */
  let control: { drawn: Point; font: Point } | undefined;
  const command = (letter: string, values: number[]) => {
    // A repeated l, h, v, q or t needs no letter; an m's followers are l's by the path grammar, so not after an m.
    const sameAgain = letter === previous && letter !== 'm';
    data += `${sameAgain ? ((values[0] ?? 0) < 0 ? '' : ' ') : letter}${numbers(values)}`;
    previous = letter;
  };
  const relative = (to: Point) => [to[0] - current[0], to[1] - current[1]];
  segments.forEach((segment, index) => {
    const next = segments[index + 1];
    if (segment.type === 'Z') {
      data += 'z';
      previous = 'z';
      current = start;
      fontCurrent = fontStart;
      control = undefined;
    } else if (segment.type === 'M') {
      const to = rounded(segment.to);
      command('m', relative(to));
      current = start = to;
      fontCurrent = fontStart = segment.to;
      control = undefined;
    } else if (segment.type === 'Q') {
      const smooth = control !== undefined && smoothAt(fontCurrent, control.font, segment.control);
      const drawnControl: Point =
        smooth && control
          ? [2 * current[0] - control.drawn[0], 2 * current[1] - control.drawn[1]]
          : rounded(segment.control);
      const to: Point =
        next?.type === 'Z' && same(segment.to, fontStart)
          ? start
          : next?.type === 'Q' && smoothAt(segment.to, segment.control, next.control)
            ? rounded([(drawnControl[0] + next.control[0]) / 2, (drawnControl[1] + next.control[1]) / 2])
            : rounded(segment.to);
      if (smooth) command('t', relative(to));
      else command('q', [...relative(drawnControl), ...relative(to)]);
      current = to;
      fontCurrent = segment.to;
      control = { drawn: drawnControl, font: segment.control };
    } else {
      control = undefined;
      const to = rounded(segment.to);
      const [dx = 0, dy = 0] = relative(to);
      // Nothing to draw, or a line back to the start just before the close, which the close draws.
      fontCurrent = segment.to;
      if ((dx === 0 && dy === 0) || (next?.type === 'Z' && same(to, start))) return;
      if (dy === 0) command('h', [dx]);
      else if (dx === 0) command('v', [dy]);
      else command('l', [dx, dy]);
      current = to;
    }
  });
  return data;
}

/** The brand's name drawn from `fontFile` (a WOFF2 or TrueType file with a weight axis). */
export async function drawWordmark(fontFile: Buffer): Promise<Wordmark> {
  const { segments, ...box } = await outline(fontFile);
  return { ...box, d: pathData(segments) };
}

const WRITTEN_BY =
  'Written by frontend/scripts/draw-wordmark.ts (`npm run font`): edit the script, not this file.';

/** The logo's colour, the page's brand-900, in the light theme and the dark one (frontend/src/styles.css). */
export interface WordmarkColours {
  light: string;
  dark: string;
}

/** `--color-brand-900` as styles.css sets it: first for the light theme, then in the dark theme's block. */
export function wordmarkColours(stylesCss: string): WordmarkColours {
  const [light, dark] = [...stylesCss.matchAll(/--color-brand-900: (#[0-9a-f]{6});/g)].map(
    ([, colour]) => colour,
  );
  if (!light || !dark)
    throw new Error('styles.css must set --color-brand-900 for the light and the dark theme');
  return { light, dark };
}

/**
 * wordmark.svg: a picture the page shows with <img>, so in the brand's colour of the theme the visitor
 * prefers (an image cannot take the colour of the text around it). No comment in it: every first visit
 * downloads it (wordmark-box.ts says who wrote it).
 */
export function wordmarkSvg({ width, height, d }: Wordmark, { light, dark }: WordmarkColours): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}"><title>${BRAND_NAME}</title><style>path{fill:${light}}@media(prefers-color-scheme:dark){path{fill:${dark}}}</style><path d="${d}"/></svg>\n`;
}

/** wordmark-box.ts: the drawing's size, for the logo to hold its place, formatted as the linter would. */
export function wordmarkBoxModule({ width, height }: Wordmark): string {
  return `/* ${WRITTEN_BY} */

/**
 * "${BRAND_NAME}" in the brand's typeface at weight ${WEIGHT}, tracking ${TRACKING_EM} em, drawn as one path
 * from the page's font file (frontend/scripts/wordmark-path.ts) in wordmark.svg: the ink's box, in units
 * of 1/${UNITS_PER_EM} em.
 */
export const WORDMARK = { width: ${width}, height: ${height} } as const;
`;
}
