export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The command-line switches of every Chromium of the browser tests (the shared one and a file's own). */
export function chromiumArgs(extraArgs: string[] = []): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--use-fake-device-for-media-stream=fps=10',
    '--use-fake-ui-for-media-stream',
    '--allow-loopback-in-peer-connection',
    ...extraArgs,
  ];
}
