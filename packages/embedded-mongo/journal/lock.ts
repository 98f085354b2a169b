/** The data-directory lock: one server per data directory, dropped by the operating system when its process dies. */
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const LOCK_FILE = "embedded-mongo.lock";
const LOCK_SOCKET = "embedded-mongo.lock.sock";

const openDirs = new Set<string>();

/** An exclusive hold on a data directory that the operating system drops when the process dies. */
export type DirLock = { release(): Promise<void> };

/**
 * Takes the data directory. The hold is a listening Unix socket: on Linux in the abstract
 * namespace, named after the directory's real path (the kernel refuses a second bind while the
 * holder lives and frees the name the moment it dies, even by kill -9); elsewhere a socket file
 * in the directory, taken over when connecting to it is refused (its holder is gone).
 * embedded-mongo.lock records the holder's pid for people; it is not what decides.
 */
export async function acquireLock(dir: string): Promise<DirLock> {
  const resolved = fs.realpathSync(path.resolve(dir));
  if (openDirs.has(resolved)) {
    throw new Error(`The embedded database in ${dir} is already open in this process.`);
  }
  const inUse = () => {
    let holder = "another process";
    try {
      const pid = fs.readFileSync(path.join(dir, LOCK_FILE), "utf8").trim();
      if (/^\d+$/.test(pid)) holder = `process ${pid}`;
    } catch {
      // no pid recorded
    }
    return new Error(
      `The embedded database in ${dir} is in use by ${holder}. Stop it first (only one server may open a data directory).`,
    );
  };
  const listen = (address: string) =>
    new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer((socket) => socket.destroy());
      server.once("error", reject);
      server.listen(address, () => {
        server.off("error", reject);
        server.unref();
        resolve(server);
      });
    });
  let server: net.Server;
  let socketFile: string | undefined;
  if (process.platform === "linux") {
    const name = `\0journey-embedded-mongo-${createHash("sha256").update(resolved).digest("hex")}`;
    try {
      server = await listen(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") throw inUse();
      throw error;
    }
  } else {
    socketFile = path.join(dir, LOCK_SOCKET);
    try {
      server = await listen(socketFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      const alive = await new Promise<boolean>((resolve) => {
        const probe = net.connect(socketFile!);
        probe.once("connect", () => {
          probe.destroy();
          resolve(true);
        });
        probe.once("error", () => resolve(false));
      });
      if (alive) throw inUse();
      fs.rmSync(socketFile, { force: true });
      server = await listen(socketFile);
    }
  }
  fs.writeFileSync(path.join(dir, LOCK_FILE), String(process.pid));
  openDirs.add(resolved);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      openDirs.delete(resolved);
      fs.rmSync(path.join(dir, LOCK_FILE), { force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (socketFile) fs.rmSync(socketFile, { force: true });
    },
  };
}
