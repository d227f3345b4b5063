/**
 * What a screenshot shows, read without an image library: a browser's PNG (8 bits a channel, RGB or RGBA,
 * not interlaced) decoded with node:zlib, and the contrast of what is drawn in a box against its ground.
 */
import { inflateSync } from 'node:zlib';

export interface Picture {
  width: number;
  height: number;
  /** The pixel at (x, y) as [r, g, b], 0-255. */
  rgb(x: number, y: number): [number, number, number];
}

export function decodePng(png: Uint8Array): Picture {
  const bytes = Buffer.from(png);
  const chunks: Buffer[] = [];
  let header: Buffer | undefined;
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') header = data;
    if (type === 'IDAT') chunks.push(data);
    at += 12 + length;
  }
  if (!header) throw new Error('not a PNG');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [depth, colourType, , , interlace] = header.subarray(8);
  const channels = colourType === 6 ? 4 : colourType === 2 ? 3 : 0;
  if (depth !== 8 || !channels || interlace)
    throw new Error(`a PNG this reader does not know: ${header.toString('hex')}`);
  const filtered = inflateSync(Buffer.concat(chunks));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = filtered[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const raw = filtered[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= channels ? (pixels[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + x] ?? 0) : 0;
      const upLeft = x >= channels && y > 0 ? (pixels[(y - 1) * stride + x - channels] ?? 0) : 0;
      const predictors = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)];
      pixels[y * stride + x] = (raw + (predictors[filter ?? 0] ?? 0)) & 0xff;
    }
  }
  return {
    width,
    height,
    rgb: (x, y) => {
      const at = y * stride + x * channels;
      return [pixels[at] ?? 0, pixels[at + 1] ?? 0, pixels[at + 2] ?? 0];
    },
  };
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [a, b, c] = [left, up, upLeft].map((value) => Math.abs(estimate - value)) as [number, number, number];
  return a <= b && a <= c ? left : b <= c ? up : upLeft;
}

/** WCAG's relative luminance of an sRGB colour. */
function luminance([r, g, b]: [number, number, number]): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function contrast(a: [number, number, number], b: [number, number, number]): number {
  const [one, other] = [luminance(a), luminance(b)];
  return (Math.max(one, other) + 0.05) / (Math.min(one, other) + 0.05);
}

/**
 * The contrast ratio (WCAG) of what is drawn in a box (x, y, width, height in the picture's pixels) against
 * its ground: the ground is the colour most pixels of the box have, the ink the pixel that stands out most.
 */
export function inkContrast(
  picture: Picture,
  box: { x: number; y: number; width: number; height: number },
): number {
  const counts = new Map<string, number>();
  const colours: [number, number, number][] = [];
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) {
      const colour = picture.rgb(x, y);
      colours.push(colour);
      const key = colour.join();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  const [ground] = [...counts].sort(([, a], [, b]) => b - a)[0] ?? ['0,0,0'];
  const groundColour = ground.split(',').map(Number) as [number, number, number];
  return Math.max(1, ...colours.map((colour) => contrast(colour, groundColour)));
}
