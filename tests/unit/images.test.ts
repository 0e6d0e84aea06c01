import { describe, expect, it } from 'vitest';
import { isPrivateAddress, sniffRasterFormat } from '../../api/src/features/media/service';

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local and mapped addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.3.4',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.1.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
  });
  it('allows public addresses', () => {
    for (const a of ['8.8.8.8', '151.101.1.69', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('sniffRasterFormat', () => {
  it('knows raster images by their bytes, not their names', () => {
    expect(sniffRasterFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('png');
    expect(sniffRasterFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffRasterFormat(Buffer.from('GIF89a....'))).toBe('gif');
    expect(sniffRasterFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(sniffRasterFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });
});
