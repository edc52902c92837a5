// Per-module rendered size of a build: `node scripts/size-report.mjs [lite]`; shows where bytes go.
import { build } from 'vite';

const mode = process.argv[2] === 'lite' ? 'lite' : 'production';
const rows = [];
await build({
  mode,
  logLevel: 'silent',
  build: { write: false },
  plugins: [
    {
      name: 'size-report',
      generateBundle(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk') continue;
          for (const [id, info] of Object.entries(chunk.modules))
            rows.push([info.renderedLength, id.replace(process.cwd() + '/', '')]);
        }
      },
    },
  ],
});
const groups = new Map();
for (const [size, id] of rows) {
  const key = id.includes('node_modules/')
    ? id
        .split('node_modules/')[1]
        .split('/')
        .slice(0, id.includes('node_modules/@') ? 2 : 1)
        .join('/')
    : id.split('/').slice(0, 2).join('/');
  groups.set(key, (groups.get(key) ?? 0) + size);
}
for (const [key, size] of [...groups].sort((a, b) => b[1] - a[1])) console.log(String(size).padStart(8), key);
