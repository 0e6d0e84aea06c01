import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelSizes } from '../../api/src/http/face-mesh';

const dir = path.dirname(createRequire(import.meta.url).resolve('@mediapipe/face_mesh/package.json'));
const bytes = (f: string) => fs.statSync(path.join(dir, f)).size;

/** Issue #51: "Loading the try-on (N MB)" and its progress come from the model's real sizes. */
describe('face model sizes', () => {
  it('counts the WebAssembly and packed model as received, and every loaded file as sent', async () => {
    const s = await modelSizes();
    expect(s.total).toBe(
      bytes('face_mesh_solution_simd_wasm_bin.wasm') + bytes('face_mesh_solution_packed_assets.data'),
    );
    expect(Object.keys(s.files).sort()).toEqual([
      'face_mesh.binarypb',
      'face_mesh.js',
      'face_mesh_solution_packed_assets.data',
      'face_mesh_solution_packed_assets_loader.js',
      'face_mesh_solution_simd_wasm_bin.js',
      'face_mesh_solution_simd_wasm_bin.wasm',
    ]);
    for (const [name, f] of Object.entries(s.files)) {
      expect(f.raw, name).toBe(bytes(name));
      expect(f.br, name).toBeLessThanOrEqual(f.gz + 64);
    }
    expect(s.wire).toBe(Object.values(s.files).reduce((a, f) => a + f.br, 0));
    // Compressed, the first try-on costs well under its 10 MB raw.
    expect(s.wire).toBeLessThan(s.total * 0.6);
  });
});
