import { readFileSync } from "node:fs";
import { freePort } from "./ports";

describe("freePort", () => {
  it("never hands out the same port twice in one process, even when none of them is listened on yet", async () => {
    // The soak picks every replica's port before starting any: the ports are free at every pick.
    const ports = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it("picks below the kernel's ephemeral range, where outgoing connections cannot take the port", async () => {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    const port = await freePort();
    expect(port).toBeLessThan(low);
    expect(port).toBeGreaterThanOrEqual(10_000);
  });
});
