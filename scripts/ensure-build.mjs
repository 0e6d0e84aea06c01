// Builds the PWA when dist/ is missing or older than its sources, so `npm start` is quick after the first run.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const sources = ['pwa', 'sw', 'locales', 'api/contract', 'package-lock.json'];
const stamp = path.join(repo, 'dist', '.build-stamp');

function newest(p) {
  const full = path.join(repo, p);
  if (!fs.existsSync(full)) return 0;
  const st = fs.statSync(full);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(full, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    max = Math.max(max, newest(path.join(p, e.name)));
  }
  return max;
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const changed = Math.max(...sources.map(newest));
const serverEntry = path.join(repo, 'dist-ssr', 'entry-server.js');
if (!built || changed > built || !fs.existsSync(serverEntry) || process.env.FORCE_BUILD === '1') {
  console.log('Building the web app…');
  execSync('npm run build --silent', { cwd: repo, stdio: 'inherit' });
  fs.writeFileSync(stamp, new Date().toISOString());
}
