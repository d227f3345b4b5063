/**
 * Chromium as every browser-driving tool here launches it (the page's scripts, the tests, the benchmarks):
 * Debian's build (none is ever downloaded), kept off the network it cannot reach, which it would otherwise
 * keep trying. Each caller adds its own headless flag.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
