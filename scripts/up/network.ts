import net from "node:net";

/** Only servers on this machine may be started by up; a remote URL means someone else runs it. */
export function isLocalHost(hostname: string): boolean {
  const h = bare(hostname).toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** URL.hostname keeps the brackets of an IPv6 literal; sockets want them gone. */
export function bare(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1");
}

export function portOf(url: URL, fallback: number): number {
  return url.port ? Number(url.port) : fallback;
}

/**
 * A plain TCP connect tells "nothing listens" (start it) apart from "something listens but the
 * protocol check fails" (wrong password, still starting), which call for different advice.
 */
export function canConnect(hostname: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: bare(hostname), port });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}
