import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FACE_FILES, FACE_MODEL_VERSION } from '../../api/contract/face-model';
import { modelSizes } from '../../api/src/http/face-mesh';

const dir = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/human')), '..');
const bytes = (f: string) => fs.statSync(path.join(dir, f)).size;

/** Issue #51: "Loading the try-on (N MB)" and its progress come from the model's real sizes. */
describe('face model sizes', () => {
  it('counts the bundle and the two face models as received, and as sent', async () => {
    const s = await modelSizes();
    expect(Object.keys(s.files).sort()).toEqual([
      'dist/human.esm.js',
      'models/blazeface.bin',
      'models/blazeface.json',
      'models/facemesh.bin',
      'models/facemesh.json',
    ]);
    expect(s.total).toBe(FACE_FILES.reduce((a, f) => a + bytes(f), 0));
    for (const [name, f] of Object.entries(s.files)) {
      expect(f.raw, name).toBe(bytes(name));
      expect(f.br, name).toBeLessThanOrEqual(f.gz + 64);
    }
    expect(s.wire).toBe(Object.values(s.files).reduce((a, f) => a + f.br, 0));
    // The budget (issue #51): a first try-on transfers at most 3 MB, the model's share of it well under.
    expect(s.wire).toBeLessThan(2_500_000);
  });

  it('names the installed version', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
    expect(FACE_MODEL_VERSION).toBe(pkg.version);
  });
});
