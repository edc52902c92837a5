/** react-dom's flushSync for the lite build (vite aliases `react-dom` here): preact renders synchronously anyway. */
export function flushSync(fn: () => void): void {
  fn();
}
