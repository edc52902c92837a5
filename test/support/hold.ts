/**
 * The longest time this thread was held while `work` ran: the largest gap between two timer turns.
 * Not node's monitorEventLoopDelay: it read 13 ms where the old SQLite reader held this thread
 * 560 ms (reader-thread.test.ts). `onTurn` runs at each turn (a probe of the test's own); its time
 * is not counted as held.
 */
export async function longestHold<T>(work: Promise<T>, onTurn?: () => void): Promise<{ result: T; held: number }> {
  let held = 0;
  let last = performance.now();
  let done = false;
  const ticking = new Promise<void>((stopped) => {
    const tick = () => {
      const now = performance.now();
      held = Math.max(held, now - last);
      if (onTurn) {
        onTurn();
        last = performance.now();
      } else last = now;
      if (done) stopped();
      else setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
  });
  const result = await work;
  done = true;
  await ticking;
  return { result, held };
}
