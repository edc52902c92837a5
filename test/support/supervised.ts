import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { superviseWorkers } from '../../collector/server/supervisor';

// The supervisor of PAGEPULSE_WORKERS with stand-in workers (test/server/supervisor.test.ts):
// `node --import tsx test/support/supervised.ts` with WORKERS=N and FAIL_FIRST=k, where the first k
// workers forked exit with code 1 before they listen, as a collector does when its database is not
// reachable yet. The primary prints how many workers it has once the start is done.

if (cluster.isPrimary) {
  await superviseWorkers(Number(process.env.WORKERS));
  console.log(`live workers: ${Object.keys(cluster.workers ?? {}).length}`);
} else if (cluster.worker!.id <= Number(process.env.FAIL_FIRST ?? 0)) {
  process.exit(1);
} else {
  createServer((_, res) => res.end('ok')).listen(0, '127.0.0.1');
}
