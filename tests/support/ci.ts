/**
 * Whether this run is CI: `CI` set to anything but empty, `0` or `false` (CI services set `true` or `1`;
 * `.ci/run` exports `CI=true`). In CI a test whose tools are missing fails; it never skips.
 */
export const inCi = (): boolean => {
  const v = (process.env.CI ?? '').trim().toLowerCase();
  return v !== '' && v !== '0' && v !== 'false';
};
