// Run inside the page by both browser tiers (test/e2e, test/engines): sent as source, each is self-contained.

/**
 * Marks the page interactive at the first script-made write of `<html lang>`: the page's first passive effect
 * (applyPageMetadata), after which React's handlers are attached. Run it before the page's own scripts.
 */
export function markWhenInteractive(): void {
  const state = window as unknown as { __mandjeInteractive?: boolean };
  new MutationObserver((records, observer) => {
    if (records.some((record) => record.target === document.documentElement)) {
      state.__mandjeInteractive = true;
      observer.disconnect();
    }
  }).observe(document, { attributes: true, attributeFilter: ['lang'], subtree: true });
}

/** Whether markWhenInteractive has seen the page become interactive. */
export function isInteractive(): boolean {
  return (window as unknown as { __mandjeInteractive?: boolean }).__mandjeInteractive === true;
}

/**
 * The contrast ratio (WCAG) of what is drawn in a box of the viewport (CSS pixels) against its ground, read
 * from a screenshot of the viewport (PNG, base64) that the browser itself decodes: the ground is the colour
 * most of the box's pixels have, the ink the pixel that stands out most from it.
 */
export async function inkContrast({
  png,
  box,
}: {
  png: string;
  box: { left: number; top: number; right: number; bottom: number };
}): Promise<number> {
  const bytes = Uint8Array.from(atob(png), (character) => character.charCodeAt(0));
  const picture = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [picture.width, picture.height];
  const context = canvas.getContext('2d') as CanvasRenderingContext2D;
  context.drawImage(picture, 0, 0);
  const scale = picture.width / innerWidth;
  const [left, top] = [Math.ceil(box.left * scale), Math.ceil(box.top * scale)];
  const { data } = context.getImageData(
    left,
    top,
    Math.floor(box.right * scale) - left,
    Math.floor(box.bottom * scale) - top,
  );
  const luminance = (rgb: number[]) => {
    const [r = 0, g = 0, b = 0] = rgb.map((channel) => {
      const c = channel / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const pixels: number[][] = [];
  const counts = new Map<string, number>();
  for (let at = 0; at < data.length; at += 4) {
    const pixel = [...data.subarray(at, at + 3)];
    pixels.push(pixel);
    counts.set(pixel.join(), (counts.get(pixel.join()) ?? 0) + 1);
  }
  const [ground = '0,0,0'] = [...counts].sort(([, a], [, b]) => b - a)[0] ?? [];
  const groundLight = luminance(ground.split(',').map(Number));
  return Math.max(
    1,
    ...pixels.map((pixel) => {
      const light = luminance(pixel);
      return (Math.max(light, groundLight) + 0.05) / (Math.min(light, groundLight) + 0.05);
    }),
  );
}
