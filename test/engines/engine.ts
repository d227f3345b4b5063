/**
 * What a journey needs of a browser engine, and all that each driver implements: a tab at a phone's size,
 * a script run in the page, and a person's pointer and keyboard. Everything else (finding by role and name,
 * waiting, checking) is written once, on top of this (visitor.ts).
 */

export interface TabOptions {
  /** False: the page's own scripts do not run, as for a visitor whose browser blocks them. */
  javaScript: boolean;
  /** Run in every page before its own scripts (when they run). */
  initScript: string;
  /** The colour scheme the page is told the visitor prefers (`prefers-color-scheme`). */
  colorScheme: ColorScheme;
}

export type ColorScheme = 'light' | 'dark';

export interface EngineTab {
  /** Navigates and waits for the page's load event. */
  goto(url: string): Promise<void>;
  /** Evaluates a JavaScript expression in the page and returns its (JSON) value. */
  evaluate<T>(expression: string): Promise<T>;
  /** A pointer's click at a point of the viewport, in CSS pixels. */
  click(x: number, y: number): Promise<void>;
  /** Types text into whatever has the focus, key by key. */
  type(text: string): Promise<void>;
  press(key: 'Enter' | 'Escape'): Promise<void>;
  /** A picture of the viewport as drawn, PNG. */
  screenshot(): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface Engine {
  readonly name: string;
  /** A tab 390 × 844 CSS pixels (a phone), in a profile of its own: no storage and no cache from another tab. */
  newTab(options: TabOptions): Promise<EngineTab>;
  /** Stops everything the engine started. */
  close(): Promise<void>;
}

export const VIEWPORT = { width: 390, height: 844 } as const;
