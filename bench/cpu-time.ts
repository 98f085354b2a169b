import fs from "node:fs";

/** CPU time (user + system) a process has used, in ms (Linux: /proc/<pid>/stat, 100 ticks a second). */
export function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (user + system) this process has used, in ms. */
export function ownCpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
