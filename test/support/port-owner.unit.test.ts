import { spawn } from "node:child_process";
import net from "node:net";
import { listensOnPort } from "./port-owner";

// A readiness poll must know whose listener answered it (services.ts): the port's owner, by /proc.
it("tells the process listening on a port from any other process", async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const other = spawn("sleep", ["30"]);
  try {
    expect(listensOnPort(process.pid, port)).toBe(true);
    expect(listensOnPort(other.pid!, port)).toBe(false);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(listensOnPort(process.pid, port)).toBe(false);
  } finally {
    other.kill();
  }
});
