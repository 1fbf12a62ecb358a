import { allowedNetworks, checkEndpoint, createGuardedLookup, isBlockedAddress } from "../src";

describe("isBlockedAddress", () => {
  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.1",
    "172.16.5.4",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "[::1]",
    "fe80::1%eth0",
    "not-an-ip",
    "",
  ])("blocks %s", (ip) => expect(isBlockedAddress(ip)).toBe(true));

  it.each(["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:93.184.216.34", "172.32.0.1", "11.0.0.1"])("allows %s", (ip) =>
    expect(isBlockedAddress(ip)).toBe(false),
  );
});

describe("checkEndpoint", () => {
  const prod = { allowPrivate: false, requireHttps: true };
  const fakeLookup = (map: Record<string, string[]>) => async (host: string) => (map[host] ?? []).map((address) => ({ address }));

  it("refuses http in production and allows it in development", async () => {
    expect(await checkEndpoint("http://hooks.example.com/x", { ...prod, lookup: fakeLookup({ "hooks.example.com": ["93.184.216.34"] }) })).toEqual({
      ok: false,
      reason: "must use https",
    });
    expect((await checkEndpoint("http://127.0.0.1:9/x", { allowPrivate: true, requireHttps: false })).ok).toBe(true);
  });

  it.each([
    "https://127.0.0.1/x",
    "https://2130706433/x",
    "https://0177.0.0.1/x",
    "https://0x7f.1/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://169.254.169.254/latest",
  ])("refuses %s in production (every spelling of a private address)", async (url) => {
    const res = await checkEndpoint(url, prod);
    expect(res.ok).toBe(false);
  });

  it("refuses a public name that resolves to a private address", async () => {
    const res = await checkEndpoint("https://evil.example.com/hook", { ...prod, lookup: fakeLookup({ "evil.example.com": ["93.184.216.34", "10.0.0.5"] }) });
    expect(res).toEqual({ ok: false, reason: "must resolve to a public address" });
  });

  it("accepts a public https endpoint, on 443 or another web port", async () => {
    const lookup = fakeLookup({ "hooks.example.com": ["93.184.216.34"] });
    for (const url of [
      "https://hooks.example.com/in",
      "https://hooks.example.com:443/in",
      "https://hooks.example.com:8443/in",
      "https://hooks.example.com:3000/in",
    ]) {
      expect((await checkEndpoint(url, { ...prod, lookup })).ok).toBe(true);
    }
  });

  it.each([6379, 5432, 22, 25, 3306, 27017, 9200, 11211, 6443, 2375, 1])(
    "refuses a public host on the non-web port %i in production, not in development",
    async (port) => {
      const lookup = fakeLookup({ "hooks.example.com": ["93.184.216.34"] });
      const res = await checkEndpoint(`https://hooks.example.com:${port}/in`, { ...prod, lookup });
      expect(res).toEqual({ ok: false, reason: expect.stringContaining(`port ${port} is not a web port`) });
      expect((await checkEndpoint(`http://127.0.0.1:${port}/in`, { allowPrivate: true, requireHttps: false })).ok).toBe(true);
    },
  );
});

describe("createGuardedLookup", () => {
  it("refuses a private answer at connect time unless private addresses are allowed", async () => {
    const lookup = (allow: boolean) =>
      new Promise<string>((resolve, reject) => createGuardedLookup(allow)("localhost", {}, (err, address) => (err ? reject(err) : resolve(String(address)))));
    await expect(lookup(false)).rejects.toMatchObject({ code: "EBLOCKED" });
    await expect(lookup(true)).resolves.toMatch(/127\.0\.0\.1|::1/);
  });
});

describe("allowed private networks (WEBHOOK_ALLOWED_PRIVATE_NETWORKS)", () => {
  const allowed = allowedNetworks(["10.20.0.0/16", "127.0.0.1/32", "fd00:1::/64"]);
  const prod = { allowPrivate: false, requireHttps: true, allowedNetworks: allowed };

  it("lets through the addresses inside them (in any spelling) and nothing beside them", () => {
    for (const ip of ["10.20.3.4", "127.0.0.1", "::ffff:127.0.0.1", "fd00:1::5"])
      expect({ ip, blocked: isBlockedAddress(ip, allowed) }).toEqual({ ip, blocked: false });
    for (const ip of ["10.21.0.1", "127.0.0.2", "169.254.169.254", "fd00:2::5", "::1"])
      expect({ ip, blocked: isBlockedAddress(ip, allowed) }).toEqual({ ip, blocked: true });
  });

  it("still wants https and a web port for an endpoint inside them", async () => {
    expect((await checkEndpoint("https://127.0.0.1:8443/hook", prod)).ok).toBe(true);
    expect(await checkEndpoint("http://127.0.0.1:8443/hook", prod)).toEqual({ ok: false, reason: "must use https" });
    expect(await checkEndpoint("https://127.0.0.1:6379/hook", prod)).toEqual({ ok: false, reason: expect.stringContaining("port 6379 is not a web port") });
    expect(await checkEndpoint("https://127.0.0.2:8443/hook", prod)).toEqual({ ok: false, reason: "must resolve to a public address" });
  });

  it("lets the connect-time lookup reach them", async () => {
    const resolve = ((_host: string, _opts: unknown, cb: (err: null, list: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: "10.20.0.7", family: 4 }])) as unknown as typeof import("node:dns").lookup;
    const lookup = (list?: ReturnType<typeof allowedNetworks>) =>
      new Promise<string>((ok, fail) =>
        createGuardedLookup(false, resolve, list)("hooks.internal", {}, (err, address) => (err ? fail(err) : ok(String(address)))),
      );
    await expect(lookup(allowed)).resolves.toBe("10.20.0.7");
    await expect(lookup(undefined)).rejects.toMatchObject({ code: "EBLOCKED" });
  });
});
