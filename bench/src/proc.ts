// What the bench reads from /proc: CPU and memory of the servers, of the database backends and of the machine.
import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second (`getconf CLK_TCK`; 100 on every Linux we run on). */
export const CLK_TCK = 100;

/** CPU ticks of a process, or of one of its threads (`tid`; the main thread's is the pid). */
export function cpuTicks(pid: number, tid?: number): number {
  // Fields after the command name: state is [0], utime [11], stime [12] (man 5 proc).
  const path = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

export function memory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

/** What a load run observes: the server process, and the database backends serving it. */
export interface Probe {
  pid: number;
  /** Pids of the PostgreSQL backends connected to the benchmark database. */
  dbPids(): Promise<number[]>;
}

function ticksOf(pids: number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      ticks.set(pid, cpuTicks(pid));
    } catch {
      // The backend ended in the meantime.
    }
  }
  return ticks;
}

/** CPU of the server and of the database backends, and the server's peak RSS, while `work` runs. */
export async function watch<T>(
  probe: Probe,
  work: () => Promise<T>,
): Promise<{ result: T; cpuSeconds: number; dbCpuSeconds: number; peakRssMb: number }> {
  const { pid } = probe;
  let peakRssMb = memory(pid).rssMb;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, memory(pid).rssMb);
  }, 100);
  const dbBefore = ticksOf(await probe.dbPids());
  const before = cpuTicks(pid);
  try {
    const result = await work();
    const cpuSeconds = (cpuTicks(pid) - before) / CLK_TCK;
    // Backends that connected during the run count from zero.
    let dbTicks = 0;
    for (const [backend, ticks] of ticksOf(await probe.dbPids()))
      dbTicks += ticks - (dbBefore.get(backend) ?? 0);
    return { result, cpuSeconds, dbCpuSeconds: dbTicks / CLK_TCK, peakRssMb };
  } finally {
    clearInterval(sampler);
  }
}

/** Busy CPU ticks of the whole machine so far (user, nice, system, irq, softirq of /proc/stat). */
export function machineBusyTicks(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  return fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]!;
}
