// What the insertion watch's observer callback (src/platform/watch.ts) costs to sort a batch of
// mutation records before it queries anything: `npx tsx scripts/bench/watch-batch.ts`. A page in
// Chromium (4x CPU throttling, as Lighthouse's mobile preset) appends 60 sections of nested markup
// node by node, as the parser does: one record per node, 2,161 in one batch. Each way of collecting
// the batch's nodes and finding its roots (a node whose parent is not in the batch) runs on the same
// records; medians of WATCH_ROUNDS rounds (default 7), ms per callback.
import { chromium } from 'playwright-core';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const ROUNDS = Number(process.env.WATCH_ROUNDS ?? 7);

const browser = await chromium.launch({ executablePath: CHROME });
try {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // tsx (esbuild's keepNames) wraps named functions in `__name` calls, which the page lacks
  await page.addInitScript('window.__name = (fn) => fn;');
  await page.goto('about:blank');
  await page.setContent('<!doctype html><html><body></body></html>');
  const result = await page.evaluate(async (rounds) => {
    const count = {
      roots(batch: Set<Node | null>): number {
        let n = 0;
        for (const node of batch) if (!batch.has(node!.parentNode)) n++;
        return n;
      },
    };
    const ways: Record<string, (records: MutationRecord[]) => number> = {
      // the watch before the batch roots: every record's nodes through Array.from, no set
      'a record at a time (Array.from per record)': (records) => {
        let n = 0;
        for (const record of records)
          if (record.type === 'attributes') n++;
          else for (const node of Array.from(record.addedNodes)) n += node.nodeType;
        return n;
      },
      'flatMap, NodeList spread per record, then a set': (records) => {
        const nodes = records.flatMap((r) => (r.type === 'attributes' ? [r.target] : [...r.addedNodes]));
        return count.roots(new Set<Node | null>(nodes));
      },
      'for...of over each NodeList into the set (shipped)': (records) => {
        const batch = new Set<Node | null>();
        for (const r of records) for (const node of r.type === 'attributes' ? [r.target] : r.addedNodes) batch.add(node);
        return count.roots(batch);
      },
      'index loop over each NodeList into the set': (records) => {
        const batch = new Set<Node | null>();
        for (const r of records) {
          const list = r.type === 'attributes' ? [r.target] : r.addedNodes;
          for (let i = 0; i < list.length; i++) batch.add(list[i]!);
        }
        return count.roots(batch);
      },
    };
    const times: Record<string, number[]> = {};
    let records = 0;
    for (let round = 0; round < rounds; round++) {
      const batch = await new Promise<MutationRecord[]>((resolve) => {
        const observer = new MutationObserver((delivered) => {
          observer.disconnect();
          resolve(delivered);
        });
        observer.observe(document.documentElement, { childList: true, subtree: true });
        const main = document.createElement('main');
        document.body.appendChild(main);
        for (let s = 0; s < 60; s++) {
          const section = document.createElement('section');
          main.appendChild(section);
          for (let k = 0; k < 7; k++) {
            const item = document.createElement('div');
            section.appendChild(item);
            item.appendChild(document.createTextNode('Bild'));
            const link = document.createElement('a');
            item.appendChild(link);
            link.appendChild(document.createTextNode('Serie'));
            section.appendChild(document.createTextNode('\n'));
          }
        }
      });
      records = batch.length;
      for (const [name, way] of Object.entries(ways)) {
        const started = performance.now();
        for (let i = 0; i < 5; i++) way(batch);
        (times[name] ??= []).push((performance.now() - started) / 5);
      }
      document.body.textContent = '';
    }
    return { records, times };
  }, ROUNDS);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`${result.records} records in one batch, 4x CPU, median of ${ROUNDS} rounds:`);
  for (const [name, values] of Object.entries(result.times)) console.log(`${median(values).toFixed(2).padStart(7)} ms  ${name}`);
} finally {
  await browser.close();
}
